#!/bin/bash -eu
# ClusterFuzzLite entry point; the build itself is fuzz/oss-fuzz/build.sh.
exec bash "$SRC/niovcheck/fuzz/oss-fuzz/build.sh"
