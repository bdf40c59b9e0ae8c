#!/bin/sh
# The library's folders import only downwards and the tool sees only the public
# API: scripts/check-layers.sh on this build's objects (see docs/architecture.md).
. "$(dirname "$0")/lib.sh"
sh "$ROOT_DIR/scripts/check-layers.sh" "$BUILD_DIR"
