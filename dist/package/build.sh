#!/usr/bin/env bash
# ./run.sh package: the three programs in release, with the Swift standard library and
# Foundation linked in statically and stripped, as
#   dist/compliance-orchestrator_VERSION-1_amd64.deb          (dpkg-deb; checked with lintian)
#   dist/compliance-orchestrator-VERSION-linux-amd64.tar.gz   (the same files, INSTALL inside)
# VERSION is ProgramVersion.current. Debian packages it needs (dpkg-dev, lintian) come from
# run.sh's setup. The build lives in .build-release; the package's tree in .build-release/pkg.
set -euo pipefail
cd "$(dirname "$0")/../.."

name=compliance-orchestrator
programs=(complianced compliancectl mockauth)
version="$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' Sources/ProgramSupport/ProgramVersion.swift)"
[ -n "$version" ] || { echo "error: no version in Sources/ProgramSupport/ProgramVersion.swift" >&2; exit 1; }
revision=1
arch="$(dpkg --print-architecture)"
scratch=.build-release
maintainer="The Compliance Orchestrator developers <maintainers@users.noreply.a-seed-1bbe0ace.example>"
# Dated by the last change of the version, as the man pages are: the same tree gives the same files.
date_iso="$(git log -1 --format=%cI -- Sources/ProgramSupport/ProgramVersion.swift 2>/dev/null || true)"
[ -n "$date_iso" ] || date_iso="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
SOURCE_DATE_EPOCH="$(date -d "$date_iso" +%s)"
export SOURCE_DATE_EPOCH

echo "==> building $name $version (release, static Swift standard library and Foundation)"
for program in "${programs[@]}" child-keeper; do
    swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$program"
done
bin="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)"

for program in "${programs[@]}"; do
    # No Swift runtime library, Foundation, Dispatch or ICU may be loaded from the toolchain.
    if ldd "$bin/$program" | grep -Ei 'swift|Foundation|dispatch|BlocksRuntime|icu'; then
        echo "error: $program links a Swift library dynamically (above)" >&2
        exit 1
    fi
done

stage="$scratch/pkg"
root="$stage/root"
rm -rf "$stage"
mkdir -p "$root"

# The files, laid out under $1 (a prefix: usr for the .deb, PREFIX for the tarball).
# $2: where completions for zsh go under it.
lay_out() {
    local prefix="$1" zsh="$2"
    install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
        "$prefix/$zsh" "$prefix/share/fish/vendor_completions.d" "$prefix/share/$name/mocks"
    for program in "${programs[@]}"; do
        install -m 0755 "$bin/$program" "$prefix/bin/$program"
        strip --strip-unneeded --remove-section=.comment --remove-section=.note "$prefix/bin/$program"
        # swift-argument-parser's pages separate paragraphs with empty lines, which groff warns
        # about; .Pp is mdoc's paragraph break and renders the same.
        sed 's/^$/.Pp/' "dist/man/man1/$program.1" | gzip -9n >"$prefix/share/man/man1/$program.1.gz"
        # bash-completion sources these files: the generator's #!/bin/bash line is not used.
        sed '1{/^#!/d}' "dist/completions/bash/$program" >"$prefix/share/bash-completion/completions/$program"
        chmod 0644 "$prefix/share/man/man1/$program.1.gz" "$prefix/share/bash-completion/completions/$program"
        install -m 0644 "dist/completions/zsh/_$program" "$prefix/$zsh/_$program"
        install -m 0644 "dist/completions/fish/$program.fish" "$prefix/share/fish/vendor_completions.d/$program.fish"
    done
    # compliancectl starts each server under child-keeper (C, libc only), found here from
    # ../libexec: nothing it starts outlives it (Sources/ChildProcess/Keeper.swift).
    install -d "$prefix/libexec/$name"
    install -m 0755 "$bin/child-keeper" "$prefix/libexec/$name/child-keeper"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$prefix/libexec/$name/child-keeper"
    # The demo: flows/*.json name their fixtures as ../mocks/fixtures/…, so the two folders
    # keep their places relative to each other.
    install -d "$prefix/share/$name/flows" "$prefix/share/$name/mocks/fixtures/apps"
    install -m 0644 flows/*.json "$prefix/share/$name/flows/"
    install -m 0644 mocks/fixtures/*.json "$prefix/share/$name/mocks/fixtures/"
    install -m 0644 mocks/fixtures/apps/* "$prefix/share/$name/mocks/fixtures/apps/"
}

# A unit for /usr/bin, with a header saying where it came from instead of the hand-install steps.
packaged_unit() {
    local unit="$1"
    printf '# %s, installed by the %s package. Options: /etc/default/%s.\n# Start it: systemctl enable --now %s\n\n' \
        "$unit.service" "$name" "$unit" "$unit"
    sed -n '/^\[Unit\]/,$p' "dist/systemd/$unit.service" | sed 's#/usr/local/bin/#/usr/bin/#g'
}

echo "==> laying out the package"
lay_out "$root/usr" share/zsh/vendor-completions
install -d "$root/lib/systemd/system" "$root/etc/default" "$root/usr/share/doc/$name" "$root/DEBIAN"
for unit in complianced mockauth; do
    packaged_unit "$unit" >"$root/lib/systemd/system/$unit.service"
    chmod 0644 "$root/lib/systemd/system/$unit.service"
    install -m 0644 "dist/package/$unit.default" "$root/etc/default/$unit"
done
install -m 0644 dist/package/copyright "$root/usr/share/doc/$name/copyright"
{
    printf '%s (%s-%s) unstable; urgency=medium\n\n' "$name" "$version" "$revision"
    printf '  * Release %s of complianced, compliancectl and mockauth, built from\n' "$version"
    printf '    commit %s.\n\n' "$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    printf ' -- %s  %s\n' "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$root/usr/share/doc/$name/changelog.Debian.gz"
for script in postinst prerm postrm; do install -m 0755 "dist/package/$script" "$root/DEBIAN/$script"; done
printf '/etc/default/complianced\n/etc/default/mockauth\n' >"$root/DEBIAN/conffiles"

# Depends: what dpkg-shlibdeps finds the binaries need (it wants a debian/control to read).
shlibs_dir="$stage/shlibs"
mkdir -p "$shlibs_dir/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$name" "$name" >"$shlibs_dir/debian/control"
depends="$(cd "$shlibs_dir" && dpkg-shlibdeps -O "${programs[@]/#/$PWD/../root/usr/bin/}" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "error: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
installed_size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
cat >"$root/DEBIAN/control" <<CONTROL
Package: $name
Version: $version-$revision
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Section: admin
Priority: optional
Description: app-protection compliance daemon, CLI and mock Entra ID issuer
 A Linux stand-in for the compliance half of Microsoft's Intune App SDK and
 MSAL, for engineers who integrate and test app-protection flows:
  - complianced, a daemon that acquires tokens declaring the protapp
    capability, remediates "protection policy required" (enrolls with the
    app-management service, applies policy, retries), enforces allowed
    accounts and performs selective wipe;
  - compliancectl, its command-line client, which also runs end-to-end test
    flows (the demo: compliancectl run /usr/share/$name/flows
    runs every packaged flow against mockauth);
  - mockauth, a mock Entra ID token issuer and Intune MAM service.
 Systemd units for complianced and mockauth are included, not enabled.
CONTROL
find "$root" -type d -exec chmod 0755 {} +

deb="dist/${name}_${version}-${revision}_${arch}.deb"
rm -f dist/"${name}"_*.deb dist/"${name}"-*.tar.gz
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "==> $deb ($(du -h "$deb" | cut -f1), Depends: $depends)"

echo "==> lintian"
lintian --fail-on error "$deb"

# The tarball: the same programs, pages, completions and demo files under one prefix, the
# units as for /usr/local (dist/systemd), the default files and INSTALL.
tar_name="$name-$version-linux-$arch"
tar_root="$stage/$tar_name"
lay_out "$tar_root" share/zsh/site-functions
install -d "$tar_root/share/$name/systemd" "$tar_root/share/$name/default" "$tar_root/share/doc/$name"
install -m 0644 dist/systemd/complianced.service dist/systemd/mockauth.service "$tar_root/share/$name/systemd/"
for unit in complianced mockauth; do install -m 0644 "dist/package/$unit.default" "$tar_root/share/$name/default/$unit"; done
install -m 0644 LICENSE "$tar_root/share/doc/$name/LICENSE"
install -m 0644 dist/package/copyright "$tar_root/share/doc/$name/copyright"
sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/g" -e "s/@DEPENDS@/$depends/g" dist/package/INSTALL >"$tar_root/INSTALL"
tarball="dist/$tar_name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -C "$stage" -cf - "$tar_name" | gzip -9n >"$tarball"
echo "==> $tarball ($(du -h "$tarball" | cut -f1))"
