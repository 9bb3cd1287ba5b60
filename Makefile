# JournalMedia — set-up, build, run, test and benchmarks. See README.md.
SWIFT        ?= swift
OUT          ?= out
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := pkg-config libvips-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavfilter-dev libexif-dev libssl-dev libpango1.0-dev libxml2-dev zlib1g-dev liblcms2-dev libdeflate-dev
# Fonts the card renderer draws with (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai: noto-core;
# Chinese, Japanese, Korean: noto-cjk; emoji: noto-color-emoji). Cards count missing glyphs against these.
FONT_PACKAGES := fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
# Tools the test suite runs: strace (ArchitectureTests counts each input's openat); ffmpeg (ffprobe
# reads the notification movies back, ffmpeg makes a 4K test video and the rotation oracle).
TEST_APT_PACKAGES := strace ffmpeg
# OCR for `make card-ocr` (legibility of the rendered cards).
OCR_APT_PACKAGES := tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu
# Peers and sample tools used only by benchmarks, the conformance run and Tests/SampleMaker/make-heif-samples.py.
BENCH_APT_PACKAGES := libvips-tools libheif-examples python3-venv python3-dev gcc time ffmpeg ffmpegthumbnailer wrk

.PHONY: deps build release run test docs-lint docs-check example bench bench-deps conformance schema-check fuzz asan card-pictures card-ocr dist deb package-check deb-check install uninstall service-check cluster-check clean

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

# Release builds link the Swift runtime statically, as `make dist` and the .deb ship it: a
# process starts in ~20 ms less CPU (no libswiftCore/Foundation/ICU to map and bind), which
# is most of the cost of a one-file `convert` (Benchmarks/RESULTS.md). Every release build
# (benchmarks, dist) passes the same flag: a build folder switched between static and
# dynamic rebuilds every module.
RELEASE_FLAGS = -c release --static-swift-stdlib

release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# Converts Samples/ into $(OUT)/ (the samples include broken files on purpose, so some
# assets fail and the CLI exits 1; any other status fails the target).
run: release
	@rm -rf $(OUT)
	@status=0; $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/journal-media convert Samples --output $(OUT) || status=$$?; \
	if [ $$status -gt 1 ]; then exit $$status; fi
	@echo "Renditions in $(OUT)/:"; cd $(OUT) && ls -1 | grep -v manifest.json | sed 's/^/  /'
	@echo "Manifest: $(OUT)/manifest.json"
	@status=0; $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/journal-media suggestion Samples/suggestions/*/suggestion.json \
	  --output $(OUT)/suggestion-bundles || status=$$?; \
	if [ $$status -gt 1 ]; then exit $$status; fi
	@echo "Suggestion bundles (cards and renditions) in $(OUT)/suggestion-bundles/<bundleId>/, each with suggestion.json"

test: deps
	$(call apt_install,$(TEST_APT_PACKAGES))
	cc -fsyntax-only -Wall $$(pkg-config --cflags pangocairo) Tests/HeaderChecks/pango_shim_check.c
	$(SWIFT) test

# The README's limits (1,500 words, lines of 300 characters), relative links and #anchors in
# README.md and docs/, every source folder named in docs/architecture.md and every JSON Schema
# field on its page (Tests/DocsCheck/docs_check.py: python3, no build). CI runs its first two parts
# before `make test`, and `make docs-check` after it.
docs-lint:
	python3 Tests/DocsCheck/docs_check.py

# In CI after `make test`: docs-lint, plus every journal-media flag the pages name checked against the debug
# binary's --help (and every --help flag documented), the README's quick start run in a scratch
# folder (the service on a free loopback port), every Swift example type-checked against
# the debug build's modules, and the DocC catalog built by the toolchain's docc with warnings
# as errors (Tests/DocsCheck/docc.sh; no swift-docc-plugin in Package.swift).
docs-check: deps
	$(SWIFT) build --product journal-media
	bin=$$($(SWIFT) build --show-bin-path); python3 Tests/DocsCheck/docs_check.py --binary "$$bin/journal-media" --run --swift-build "$$bin"
	Tests/DocsCheck/docc.sh

# In CI after `make test` (not in it): Examples/Consumer, a package that depends on this one by path
# and uses only the public API (bytes → thumbnail, date, colour; a bundle's cards in memory),
# built in its own .build and run on the samples; fails on any warning this package prints
# and if it built a server module (SwiftNIO, Hummingbird: the JournalMediaServer product only).
example: deps
	cd Examples/Consumer && { $(SWIFT) build > /tmp/journal-media-example-build.log 2>&1; status=$$?; \
	  cat /tmp/journal-media-example-build.log; exit $$status; }
	@! grep "warning:" /tmp/journal-media-example-build.log | grep -v "/Examples/Consumer/.build/checkouts/\|warning: 'swift-" \
	  || { echo "make example: the consumer's build printed the warnings above"; exit 1; }
	@! ls Examples/Consumer/.build/debug/Modules | grep -iE '^(NIO|Hummingbird|AsyncHTTPClient|JournalMediaServer)' \
	  || { echo "make example: the consumer built the server's modules above (SwiftNIO, Hummingbird)"; exit 1; }
	cd Examples/Consumer && $(SWIFT) run Consumer

bench-deps: deps
	$(call apt_install,$(BENCH_APT_PACKAGES) libimage-exiftool-perl)
	Benchmarks/fetch_heic_photos.sh
	@# thumbor 7 (PyPI) in a venv of its own: the on-demand peer (Benchmarks/render_peer.py).
	test -x .build/bench/thumbor-venv/bin/thumbor || { python3 -m venv .build/bench/thumbor-venv && \
	  .build/bench/thumbor-venv/bin/pip install -q --disable-pip-version-check 'thumbor>=7,<8'; }

bench: bench-deps release
	Benchmarks/run.sh

# Opt-in: runs the toolkit over ../shared/corpus when it exists and reports what happened.
# Also renders the sample bundles' cards and reads them back with tesseract (English and
# German) for the word accuracy (Benchmarks/card-ocr.sh); that part needs no corpus.
conformance: release
	$(call apt_install,$(OCR_APT_PACKAGES) python3-jsonschema)
	Benchmarks/card-ocr.sh
	Benchmarks/conformance.sh

# Opt-in: validates Samples/suggestions/ against Schemas/suggestion-bundle.v1.json with
# python3-jsonschema, so the schema and the Swift reader stay in agreement.
schema-check:
	$(call apt_install,python3-jsonschema)
	python3 Tests/SchemaCheck/validate-bundles.py

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

# A contact sheet per card size class (tile, portrait, landscape), every sample type light
# and dark, for the README (docs/cards/tile.png, portrait.png, landscape.png).
card-pictures: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product card-bench
	rm -rf .build/card-pictures
	$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/card-bench --write .build/card-pictures
	Benchmarks/card-sheets.sh .build/card-pictures docs/cards

# Legibility alone (also part of `make conformance`): the sample bundles' cards read back by
# tesseract (English and German); prints the word accuracy.
card-ocr: release
	$(call apt_install,$(OCR_APT_PACKAGES))
	Benchmarks/card-ocr.sh

# A release binary with the Swift runtime linked statically, its man page and completions, in dist/.
dist: deps
	Packaging/dist.sh

# dist/journal-media_<version>_<arch>.deb, Depends: computed by dpkg-shlibdeps.
deb: dist
	$(call apt_install,dpkg-dev)
	Packaging/deb.sh

# The .deb checked without installing it (Packaging/check.sh): mandoc -T lint on the man page,
# the control fields, the DEP-5 copyright, systemd-analyze verify on the unit, serve started
# with the packaged serve.json, and lintian with no errors.
package-check: deb
	$(call apt_install,mandoc lintian systemd)
	Packaging/check.sh

# Opt-in, needs root and the Debian mirror: installs the .deb into a clean debootstrap'ed
# bookworm root (no Swift toolchain) and converts Samples/ there.
deb-check: deb
	$(call apt_install,debootstrap)
	$(SUDO) Packaging/deb-check.sh

# Installs dist/ under $(DESTDIR)$(PREFIX) (default /usr/local): binary, man page, completions,
# schemas, the systemd unit for `serve` (not enabled) and, unless one is there already,
# $(SYSCONFDIR)/journal-media/serve.json.
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
install: dist
	sed -e 's#/usr/bin/journal-media#$(PREFIX)/bin/journal-media#' -e 's#/etc/journal-media/#$(SYSCONFDIR)/journal-media/#' \
	  Packaging/journal-media.service > dist/journal-media.service
	install -D -m 0644 dist/journal-media.service $(DESTDIR)$(PREFIX)/lib/systemd/system/journal-media.service
	[ -e $(DESTDIR)$(SYSCONFDIR)/journal-media/serve.json ] || \
	  install -D -m 0644 Packaging/serve.json $(DESTDIR)$(SYSCONFDIR)/journal-media/serve.json
	install -D -m 0755 dist/journal-media $(DESTDIR)$(PREFIX)/bin/journal-media
	install -D -m 0644 dist/man/journal-media.1 $(DESTDIR)$(PREFIX)/share/man/man1/journal-media.1
	install -D -m 0644 dist/completions/journal-media.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/journal-media
	install -D -m 0644 dist/completions/journal-media.zsh $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_journal-media
	install -D -m 0644 dist/completions/journal-media.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/journal-media.fish
	for f in Schemas/*.json; do install -D -m 0644 $$f $(DESTDIR)$(PREFIX)/share/journal-media/schemas/$$(basename $$f); done
	install -D -m 0644 dist/places.bin $(DESTDIR)$(PREFIX)/share/journal-media/places.bin
	install -D -m 0644 openapi.yaml $(DESTDIR)$(PREFIX)/share/journal-media/openapi.yaml

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/journal-media $(DESTDIR)$(PREFIX)/share/man/man1/journal-media.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/journal-media \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_journal-media \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/journal-media.fish \
	  $(DESTDIR)$(PREFIX)/lib/systemd/system/journal-media.service \
	  $(DESTDIR)$(PREFIX)/share/journal-media/places.bin
	rm -rf $(DESTDIR)$(PREFIX)/share/journal-media

# schemathesis (PyPI, in a venv) against openapi.yaml on a loopback `journal-media serve`:
# no 5xx, no status code, content type, body or header outside the spec. Then the abuse
# suite (Benchmarks/service_abuse_limits.py: connection and decode limits, printed figures).
service-check: deps
	$(call apt_install,python3-venv)
	Benchmarks/service_check.sh

# Opt-in, as root (issue 34): deploy/ run for real on this machine, loopback and network
# namespaces only. A 2-node Slurm cluster (slurmctld, one slurmd per network namespace, munge)
# runs an array of `convert --shard` + a dependent merge over ../shared/corpus (Samples/
# without it), kills a node half-way and runs the array twice; three `serve` behind HAProxy
# take a SIGKILL and a rolling SIGTERM under load; deploy/kubernetes/ is validated offline by
# kubernetes-validate (PyPI). Figures: docs/running-at-scale.md.
CLUSTER_APT_PACKAGES := slurmctld slurmd slurm-client munge haproxy iproute2 util-linux curl time bc python3-venv
cluster-check: release
	$(call apt_install,$(CLUSTER_APT_PACKAGES))
	Benchmarks/cluster/run.sh $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/journal-media

clean:
	rm -rf .build .build-fuzz .build-asan .build-dist .build-venv-cluster dist $(OUT)
