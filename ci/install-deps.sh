#!/usr/bin/env bash
# Install niovcheck's build and test dependencies from Debian's archive.
# Idempotent: packages already present are left alone and apt-get update is
# only run when something is missing.
set -euo pipefail

packages=(
	build-essential cmake ninja-build pkg-config
	clang-14 libclang-rt-14-dev llvm-14
	libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
	libz3-dev z3 cvc5 boolector afl++ libfmt-dev nlohmann-json3-dev python3-yaml
	zip
	patch git   # kernel series: patches applied with GNU patch, --range read with git
	linux-source-6.12   # kernel tree mode tests: the real 6.12 devmem
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
	echo "install-deps: all ${#packages[@]} packages present"
	exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
