package http

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/user"
)

// serveAccountAvatar answers GET /avatars/{hash} with the PNG of an
// account's uploaded avatar (Gitea's avatar link), or the generated one of
// an account without (renderIdenticon).
func (s *kernel) serveAccountAvatar(w http.ResponseWriter, r *http.Request) {
	hash := strings.TrimPrefix(r.URL.Path, "/avatars/")
	img, err := s.orgs.Avatars().Open(r.Context(), hash)
	if err != nil && isIdenticonHash(hash) {
		img, err = renderIdenticon(hash)
	}
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("Cache-Control", "public, max-age=86400, immutable")
	_, _ = w.Write(img) // a failed write means the client left
}

// accountAvatarURL is the link of an account's uploaded avatar, empty when
// it has none.
func (s *kernel) accountAvatarURL(hash string) string {
	if hash == "" {
		return ""
	}
	return s.baseURL + "/avatars/" + hash
}

// userAvatarURL is u's avatar link: its upload when it has one, else its
// generated identicon.
func (s *kernel) userAvatarURL(u *user.User) string {
	if u.Avatar != "" {
		return s.accountAvatarURL(u.Avatar)
	}
	return s.baseURL + "/avatars/" + identiconHash(u.ID)
}

// An account without an uploaded avatar gets a generated one, as Gitea does
// in its default offline mode (models/user/avatar.go GenerateRandomAvatar:
// an identicon stored under /avatars/<hash>), so that every avatar_url
// answers an image. Depot stores nothing for it: the link's hash names the
// account and carries its own check, and /avatars/<hash> draws the image
// from the hash alone, the same bytes every time.

// identiconSize is the side of a generated avatar, Gitea's avatar size.
const identiconSize = 290

// identiconHash is the avatar hash of the account with id: 16 hex digits
// naming it and 16 that check them, so that /avatars/ draws only hashes it
// handed out (a removed upload's hash stays a 404).
func identiconHash(id int64) string {
	sum := sha256.Sum256([]byte("depot-avatar-account:" + strconv.FormatInt(id, 10)))
	name := hex.EncodeToString(sum[:8])
	return name + identiconCheck(name)
}

func identiconCheck(name string) string {
	sum := sha256.Sum256([]byte("depot-avatar-check:" + name))
	return hex.EncodeToString(sum[:8])
}

// isIdenticonHash reports whether h is a hash identiconHash made.
func isIdenticonHash(h string) bool {
	if len(h) != 32 {
		return false
	}
	if _, err := hex.DecodeString(h); err != nil {
		return false
	}
	return identiconCheck(h[:16]) == h[16:]
}

// renderIdenticon draws the avatar of hash h: a 5×5 grid mirrored left to
// right, its cells and colour taken from the hash's digest, on a light
// background, as a two-colour PNG.
func renderIdenticon(h string) ([]byte, error) {
	sum := sha256.Sum256([]byte(h))
	fg := identiconColour(sum[0], sum[1], sum[2])
	pal := color.Palette{color.RGBA{R: 0xf0, G: 0xf0, B: 0xf0, A: 0xff}, fg}
	img := image.NewPaletted(image.Rect(0, 0, identiconSize, identiconSize), pal)
	const cells, margin = 5, 20
	cell := (identiconSize - 2*margin) / cells
	for row := 0; row < cells; row++ {
		for col := 0; col < 3; col++ {
			bit := row*3 + col
			if sum[3+bit/8]>>(bit%8)&1 == 0 {
				continue
			}
			for _, c := range []int{col, cells - 1 - col} {
				x0, y0 := margin+c*cell, margin+row*cell
				for y := y0; y < y0+cell; y++ {
					for x := x0; x < x0+cell; x++ {
						img.SetColorIndex(x, y, 1)
					}
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// identiconColour keeps the hash's colour saturated and dark enough to
// stand out on the light background.
func identiconColour(r, g, b byte) color.RGBA {
	return color.RGBA{R: 0x30 + r%0xa0, G: 0x30 + g%0xa0, B: 0x30 + b%0xa0, A: 0xff}
}
