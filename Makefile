# JournalMedia — set-up, build, run, test and benchmarks. See README.md.
SWIFT        ?= swift
OUT          ?= out
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := pkg-config libvips-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavfilter-dev libexif-dev libssl-dev
# Tools the test suite runs: strace (ArchitectureTests counts each input's openat).
TEST_APT_PACKAGES := strace
# Peers and sample tools used only by benchmarks, the conformance run and Tests/SampleMaker/make-heif-samples.py.
BENCH_APT_PACKAGES := libvips-tools libheif-examples python3-venv python3-dev gcc time ffmpeg ffmpegthumbnailer

.PHONY: deps build release run test bench bench-deps conformance clean service-check

# $(call apt_install,PACKAGES): installs the Debian packages not yet installed, only those.
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "make: packages present:$(1)"; fi
endef

# Installs the Debian packages the build needs, skipping those already installed.
deps:
	$(call apt_install,$(APT_PACKAGES))

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Converts Samples/ into $(OUT)/ (the samples include broken files on purpose, so some
# assets fail and the CLI exits 1; any other status fails the target).
run: release
	@rm -rf $(OUT)
	@status=0; $$($(SWIFT) build -c release --show-bin-path)/journal-media convert Samples --output $(OUT) || status=$$?; \
	if [ $$status -gt 1 ]; then exit $$status; fi
	@echo "Renditions in $(OUT)/:"; cd $(OUT) && ls -1 | grep -v manifest.json | sed 's/^/  /'
	@echo "Manifest: $(OUT)/manifest.json"

test: deps
	$(call apt_install,$(TEST_APT_PACKAGES))
	$(SWIFT) test

bench-deps: deps
	$(call apt_install,$(BENCH_APT_PACKAGES) libimage-exiftool-perl)

bench: bench-deps release
	Benchmarks/run.sh

# Opt-in: runs the toolkit over ../shared/corpus when it exists and reports what happened.
conformance: release
	Benchmarks/conformance.sh

# schemathesis (PyPI, in a venv) against openapi.yaml on a loopback `journal-media serve`:
# no 5xx, no status code, content type, body or header outside the spec.
service-check: deps
	$(call apt_install,python3-venv)
	Benchmarks/service_check.sh

clean:
	rm -rf .build $(OUT)
