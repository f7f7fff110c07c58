package actions

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"gopkg.in/yaml.v3"
)

// WorkflowDirs are the folders whose YAML files are workflows, in the order
// Gitea reads them.
var WorkflowDirs = []string{".gitea/workflows", ".github/workflows"}

// IsWorkflowFile says whether name (a file name, not a path) is a workflow
// file: a .yml or .yaml file.
func IsWorkflowFile(name string) bool {
	ext := path.Ext(name)
	return (ext == ".yml" || ext == ".yaml") && len(name) > len(ext)
}

// Workflow states, as Gitea reports them.
const (
	WorkflowActive           = "active"
	WorkflowDisabledManually = "disabled_manually"
)

// Run and job statuses, as Gitea names them.
const (
	StatusWaiting   = "waiting"
	StatusRunning   = "running"
	StatusSuccess   = "success"
	StatusFailure   = "failure"
	StatusCancelled = "cancelled"
	StatusBlocked   = "blocked"
)

// WorkflowInput is one input of a workflow_dispatch trigger.
type WorkflowInput struct {
	Name        string
	Description string
	Required    bool
	Default     string
	Type        string // string (default), boolean, number, choice, environment
	Options     []string
}

// WorkflowJob is one job of a workflow.
type WorkflowJob struct {
	// ID is the job's key under jobs:.
	ID string
	// Name is its name: (ID when absent).
	Name string
	// RunsOn are the runner labels the job needs.
	RunsOn []string
	// Needs are the ids of the jobs it waits for.
	Needs []string
}

// Workflow is a parsed workflow file.
type Workflow struct {
	// Name is the workflow's name: (the file name when absent).
	Name string
	// Push is the push trigger, nil when the workflow has none.
	Push *PushTrigger
	// Dispatch is set when the workflow has a workflow_dispatch trigger.
	Dispatch bool
	// Inputs are the workflow_dispatch inputs, ordered by name.
	Inputs []WorkflowInput
	// Jobs are the jobs, in file order.
	Jobs []WorkflowJob
}

// PushTrigger is the filter of an on: push trigger.
type PushTrigger struct {
	Branches, BranchesIgnore, Tags, TagsIgnore []string
}

// rawWorkflow is the YAML shape read.
type rawWorkflow struct {
	Name string    `yaml:"name"`
	On   yaml.Node `yaml:"on"`
	Jobs yaml.Node `yaml:"jobs"`
}

// ParseWorkflow parses a workflow file's bytes; file is its file name. A
// file that is not a workflow is an errs.Invalid naming the parser's message.
func ParseWorkflow(file string, data []byte) (*Workflow, error) {
	var raw rawWorkflow
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, errs.Invalid("workflow: "+err.Error(), "workflow")
	}
	w := &Workflow{Name: strings.TrimSpace(raw.Name)}
	if w.Name == "" {
		w.Name = file
	}
	if err := w.readTriggers(&raw.On); err != nil {
		return nil, err
	}
	if err := w.readJobs(&raw.Jobs); err != nil {
		return nil, err
	}
	return w, nil
}

func invalidWorkflow(format string, a ...any) error {
	return errs.Invalid("workflow: "+fmt.Sprintf(format, a...), "workflow")
}

// readTriggers reads on: as a string, a list of event names or a map.
func (w *Workflow) readTriggers(on *yaml.Node) error {
	switch on.Kind {
	case 0:
		return invalidWorkflow("no on: triggers")
	case yaml.ScalarNode:
		w.trigger(on.Value, nil)
	case yaml.SequenceNode:
		for _, n := range on.Content {
			if n.Kind != yaml.ScalarNode {
				return invalidWorkflow("line %d: an event name must be a string", n.Line)
			}
			w.trigger(n.Value, nil)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(on.Content); i += 2 {
			if err := w.triggerWith(on.Content[i].Value, on.Content[i+1]); err != nil {
				return err
			}
		}
	default:
		return invalidWorkflow("line %d: on: must be an event, a list or a map", on.Line)
	}
	return nil
}

func (w *Workflow) trigger(event string, _ *yaml.Node) {
	switch event {
	case "push":
		if w.Push == nil {
			w.Push = &PushTrigger{}
		}
	case "workflow_dispatch":
		w.Dispatch = true
	}
}

// triggerWith reads one event of a map-shaped on:.
func (w *Workflow) triggerWith(event string, body *yaml.Node) error {
	w.trigger(event, body)
	if body.Kind != yaml.MappingNode {
		return nil
	}
	switch event {
	case "push":
		var f struct {
			Branches       stringList `yaml:"branches"`
			BranchesIgnore stringList `yaml:"branches-ignore"`
			Tags           stringList `yaml:"tags"`
			TagsIgnore     stringList `yaml:"tags-ignore"`
		}
		if err := body.Decode(&f); err != nil {
			return invalidWorkflow("push: %v", err)
		}
		w.Push = &PushTrigger{Branches: f.Branches, BranchesIgnore: f.BranchesIgnore, Tags: f.Tags, TagsIgnore: f.TagsIgnore}
	case "workflow_dispatch":
		var f struct {
			Inputs map[string]struct {
				Description string     `yaml:"description"`
				Required    bool       `yaml:"required"`
				Default     yaml.Node  `yaml:"default"`
				Type        string     `yaml:"type"`
				Options     stringList `yaml:"options"`
			} `yaml:"inputs"`
		}
		if err := body.Decode(&f); err != nil {
			return invalidWorkflow("workflow_dispatch: %v", err)
		}
		for name, in := range f.Inputs {
			typ := in.Type
			if typ == "" {
				typ = "string"
			}
			w.Inputs = append(w.Inputs, WorkflowInput{Name: name, Description: in.Description, Required: in.Required,
				Default: in.Default.Value, Type: typ, Options: in.Options})
		}
		sort.Slice(w.Inputs, func(i, j int) bool { return w.Inputs[i].Name < w.Inputs[j].Name })
	}
	return nil
}

// readJobs reads jobs: in file order.
func (w *Workflow) readJobs(jobs *yaml.Node) error {
	if jobs.Kind != yaml.MappingNode || len(jobs.Content) == 0 {
		return invalidWorkflow("no jobs")
	}
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		id := jobs.Content[i].Value
		var j struct {
			Name   string     `yaml:"name"`
			RunsOn stringList `yaml:"runs-on"`
			Needs  stringList `yaml:"needs"`
		}
		if err := jobs.Content[i+1].Decode(&j); err != nil {
			return invalidWorkflow("job %s: %v", id, err)
		}
		name := j.Name
		if name == "" {
			name = id
		}
		w.Jobs = append(w.Jobs, WorkflowJob{ID: id, Name: name, RunsOn: j.RunsOn, Needs: j.Needs})
	}
	return nil
}

// stringList reads a string or a list of strings.
type stringList []string

// UnmarshalYAML implements yaml.Unmarshaler.
func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*l = stringList{n.Value}
		return nil
	case yaml.SequenceNode:
		var s []string
		if err := n.Decode(&s); err != nil {
			return err
		}
		*l = s
		return nil
	}
	return fmt.Errorf("line %d: expected a string or a list of strings", n.Line)
}

// DispatchInputs checks the inputs given to a workflow_dispatch against the
// workflow's: an unknown input, a required one missing, a boolean or number
// that does not parse or a choice outside its options is an errs.Invalid
// naming the inputs. Absent inputs take their defaults.
func (w *Workflow) DispatchInputs(given map[string]string) (map[string]string, error) {
	if !w.Dispatch {
		return nil, errs.Invalid("workflow has no workflow_dispatch trigger", "workflow_id")
	}
	known := map[string]WorkflowInput{}
	for _, in := range w.Inputs {
		known[in.Name] = in
	}
	var unknown, missing, wrong []string
	for name := range given {
		if _, ok := known[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	out := map[string]string{}
	for _, in := range w.Inputs {
		v, ok := given[in.Name]
		if !ok || v == "" {
			if in.Required && in.Default == "" {
				missing = append(missing, in.Name)
				continue
			}
			v = in.Default
		}
		if v != "" && !inputValueFits(in, v) {
			wrong = append(wrong, in.Name)
		}
		out[in.Name] = v
	}
	sort.Strings(unknown)
	var msgs, fields []string
	if len(unknown) > 0 {
		msgs = append(msgs, "unknown inputs: "+strings.Join(unknown, ", "))
		fields = append(fields, unknown...)
	}
	if len(missing) > 0 {
		msgs = append(msgs, "missing required inputs: "+strings.Join(missing, ", "))
		fields = append(fields, missing...)
	}
	if len(wrong) > 0 {
		msgs = append(msgs, "inputs of the wrong type: "+strings.Join(wrong, ", "))
		fields = append(fields, wrong...)
	}
	if len(msgs) > 0 {
		return nil, errs.Invalid(strings.Join(msgs, "; "), fields...)
	}
	return out, nil
}

// inputValueFits says whether v is a value of in's type.
func inputValueFits(in WorkflowInput, v string) bool {
	switch in.Type {
	case "boolean":
		return v == "true" || v == "false"
	case "number":
		var f float64
		_, err := fmt.Sscan(v, &f)
		return err == nil
	case "choice":
		for _, o := range in.Options {
			if o == v {
				return true
			}
		}
		return false
	}
	return true
}

// MatchesPush says whether a push to ref (refs/heads/… or refs/tags/…)
// triggers the workflow.
func (w *Workflow) MatchesPush(ref string) bool {
	t := w.Push
	if t == nil {
		return false
	}
	if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		if len(t.Branches) == 0 && len(t.BranchesIgnore) == 0 && (len(t.Tags) > 0 || len(t.TagsIgnore) > 0) {
			return false // only tags filtered
		}
		return filterMatches(t.Branches, t.BranchesIgnore, b)
	}
	if tag, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
		if len(t.Tags) == 0 && len(t.TagsIgnore) == 0 && (len(t.Branches) > 0 || len(t.BranchesIgnore) > 0) {
			return false // only branches filtered
		}
		return filterMatches(t.Tags, t.TagsIgnore, tag)
	}
	return false
}

// filterMatches applies include and ignore glob lists (a leading ! in the
// include list excludes) to name; empty lists match everything.
func filterMatches(include, ignore []string, name string) bool {
	for _, p := range ignore {
		if GlobMatch(p, name) {
			return false
		}
	}
	if len(include) == 0 {
		return true
	}
	ok := false
	for _, p := range include {
		if neg, isNeg := strings.CutPrefix(p, "!"); isNeg {
			if GlobMatch(neg, name) {
				ok = false
			}
		} else if GlobMatch(p, name) {
			ok = true
		}
	}
	return ok
}

// GlobMatch matches a workflow filter pattern: * matches anything but a
// slash, ** anything, ? one character, other characters themselves.
func GlobMatch(pattern, name string) bool {
	if pattern == "" {
		return name == ""
	}
	switch {
	case strings.HasPrefix(pattern, "**"):
		rest := pattern[2:]
		for i := 0; i <= len(name); i++ {
			if GlobMatch(rest, name[i:]) {
				return true
			}
		}
		return false
	case pattern[0] == '*':
		rest := pattern[1:]
		for i := 0; i <= len(name); i++ {
			if GlobMatch(rest, name[i:]) {
				return true
			}
			if i < len(name) && name[i] == '/' {
				return false
			}
		}
		return false
	case name == "":
		return false
	case pattern[0] == '?':
		return name[0] != '/' && GlobMatch(pattern[1:], name[1:])
	}
	return pattern[0] == name[0] && GlobMatch(pattern[1:], name[1:])
}

// Run is one run of a workflow.
type Run struct {
	ID int64
	// RepoID is the repository it ran in; Index its run number there.
	RepoID int64
	Index  int64
	// WorkflowID is the workflow's file name; WorkflowName its name: when
	// the run was made (the file name when it has none).
	WorkflowID, WorkflowName string
	Title                    string
	// TriggerUserID is who pushed or dispatched.
	TriggerUserID int64
	// Ref is the full ref, CommitSHA the commit it ran at.
	Ref, CommitSHA string
	// Event is push or workflow_dispatch; EventPayload its JSON.
	Event, EventPayload string
	Status              string
	Started             time.Time
	Created, Updated    time.Time
}

// RunJob is one job of a run.
type RunJob struct {
	ID     int64
	RunID  int64
	RepoID int64
	// JobID is the job's key in the workflow; Name its name.
	JobID, Name string
	RunsOn      []string
	Needs       []string
	Status      string
	// TaskID is the task running it, 0 while it waits.
	TaskID           int64
	Created, Updated time.Time
}

// Task is a job handed to a runner, with what the tasks list shows of its
// run.
type Task struct {
	ID       int64
	JobID    int64
	RunnerID int64
	Status   string
	Started  time.Time
	Created  time.Time
	Updated  time.Time
	// LogArchived is set once the finished task's log moved from the
	// database to its compressed file.
	LogArchived bool
	// Job is the job, Run its run.
	Job RunJob
	Run Run
}

// HeadBranch is the branch or tag short name of the run's ref.
func (r *Run) HeadBranch() string {
	if b, ok := strings.CutPrefix(r.Ref, "refs/heads/"); ok {
		return b
	}
	if t, ok := strings.CutPrefix(r.Ref, "refs/tags/"); ok {
		return t
	}
	return r.Ref
}

// LabelsMatch says whether a runner with these labels can run a job that
// runs on want: every wanted label is among the runner's.
func LabelsMatch(runner, want []string) bool {
	have := map[string]bool{}
	for _, l := range runner {
		have[l] = true
	}
	for _, l := range want {
		if !have[l] {
			return false
		}
	}
	return true
}
