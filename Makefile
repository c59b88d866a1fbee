# Build entry point for OpenBench (https://github.com/AndyGrant/OpenBench), whose client runs
# `make EXE=<name>` in the engine's source directory and then `<name> bench`.
# Everyone else can simply use `cargo build --release`.
EXE ?= chess960

.PHONY: all clean deb
all:
	cargo rustc --release --bin chess960 -- --emit link=$(EXE)

# The Debian package (docs/install.md): target/debian/chess960_<version>-1_<arch>.deb
deb:
	tools/deb/build.sh

clean:
	cargo clean
