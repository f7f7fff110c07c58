package actions_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
)

func TestNormalizeSecretName(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"TOKEN", "TOKEN"},
		{"token", "TOKEN"},
		{"My_Token_2", "MY_TOKEN_2"},
		{"_X", "_X"},
		{"_", "_"},
		{"GITHUBTOKEN", "GITHUBTOKEN"},
		{"GIT_TOKEN", "GIT_TOKEN"},
		{strings.Repeat("A", actions.SecretNameMaxLength), strings.Repeat("A", actions.SecretNameMaxLength)},
	} {
		got, err := actions.NormalizeSecretName(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("NormalizeSecretName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{
		"", "1TOKEN", "MY-TOKEN", "MY TOKEN", "my.token", "GITHUB_TOKEN", "github_token", "GITEA_X", "Gitea_x",
		"ſECRET", "\u212aEY", "TOKÉN", strings.Repeat("A", actions.SecretNameMaxLength+1),
	} {
		_, err := actions.NormalizeSecretName(in)
		if !errors.Is(err, errs.ErrInvalid) || errs.Message(err) != "secretname: invalid secret name" {
			t.Errorf("NormalizeSecretName(%q) = %v; want a 422 naming secretname", in, err)
		}
	}
}

func TestCheckSecretData(t *testing.T) {
	for _, tc := range []struct {
		data string
		msg  string
	}{
		{"x", ""},
		{strings.Repeat("x", actions.SecretDataMaxLength), ""},
		{"", "Data: Required"},
		{strings.Repeat("x", actions.SecretDataMaxLength+1), "Data: data too long"},
	} {
		err := actions.CheckSecretData(tc.data)
		if tc.msg == "" && err != nil || tc.msg != "" && (!errors.Is(err, errs.ErrInvalid) || errs.Message(err) != tc.msg) {
			t.Errorf("CheckSecretData(%d bytes) = %v; want %q", len(tc.data), err, tc.msg)
		}
	}
}

func TestTruncateSecretDescription(t *testing.T) {
	long := strings.Repeat("é", actions.SecretDescriptionMaxLength+3)
	if got := actions.TruncateSecretDescription(long); got != strings.Repeat("é", actions.SecretDescriptionMaxLength) {
		t.Errorf("a long description is cut at %d characters, got %d bytes", actions.SecretDescriptionMaxLength, len(got))
	}
	if got := actions.TruncateSecretDescription("short"); got != "short" {
		t.Errorf("a short description is kept, got %q", got)
	}
}
