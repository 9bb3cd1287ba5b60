# JournalMedia — set-up, build, run, test and benchmarks. See README.md.
SWIFT        ?= swift
OUT          ?= out
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := pkg-config libvips-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavfilter-dev libexif-dev libssl-dev libpango1.0-dev
# Fonts the card renderer draws with (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai: noto-core;
# Chinese, Japanese, Korean: noto-cjk; emoji: noto-color-emoji). Cards count missing glyphs against these.
FONT_PACKAGES := fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
# Tools the test suite runs: strace (ArchitectureTests counts each input's openat); ffmpeg (ffprobe
# reads the notification movies back, ffmpeg makes a 4K test video and the rotation oracle).
TEST_APT_PACKAGES := strace ffmpeg
# Peers and sample tools used only by benchmarks, the conformance run and Tests/SampleMaker/make-heif-samples.py.
BENCH_APT_PACKAGES := libvips-tools libheif-examples python3-venv python3-dev gcc time ffmpeg ffmpegthumbnailer

.PHONY: deps build release run test bench bench-deps conformance fuzz asan clean

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
	$(call apt_install,$(APT_PACKAGES) $(FONT_PACKAGES))

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

# Coverage-guided fuzzing of the parsers that read untrusted bytes (Fuzz/, a separate package
# that `swift build` and `swift test` never build): FUZZ_SECONDS per target (default 60).
# libFuzzer and ASan come with the Swift toolchain; libexif-dev is the only system need.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

# The CLI built with AddressSanitizer (in .build-asan) and run over Samples/ and, when present,
# ../shared/corpus; any ASan report fails the target.
asan: deps
	Benchmarks/asan.sh

clean:
	rm -rf .build .build-fuzz .build-asan $(OUT)
