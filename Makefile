# Thin wrapper around CMake: the README's commands.
#   make        build build/cachepressure
#   make run    the main job: the seed experiment, both policies
#   make test   the whole suite, then again with ASan+UBSan
#   make bench  benchmarks (not part of the tests)
#   make test-lab  build the lab kernels (stock and legacy 6.1) if missing,
#                  then the lab tests: boot one under qemu, calibrate a
#                  guest, and a 2-run A/B of the two (tests/real/lab_*.sh)

BUILD     ?= build
SAN_BUILD ?= build-san
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
# CI sets CI=true: warnings become errors there.
WERROR    := $(if $(CI),ON,OFF)
CMAKE_ARGS ?=

.PHONY: all build deps test test-normal test-sanitize test-lab lab-kernels run bench lint clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCP_WERROR=$(WERROR) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

test: lint test-normal test-sanitize

test-normal: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The same suite built with ASan+UBSan; the real-kernel integration tests
# (label "real") run once, in the normal build, since they load the machine.
test-sanitize: deps
	@cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug \
		-DCP_SANITIZE=address,undefined -DCP_WERROR=$(WERROR) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	ctest --test-dir $(SAN_BUILD) --output-on-failure -j $(JOBS) -LE real

# The kernel lab (docs/kernel-lab.md): kernels are built outside the
# repository, once (about 4 min each on two cores), then reused.
LAB_STOCK  ?= /var/tmp/cp-kbuild-stock
LAB_LEGACY ?= /var/tmp/cp-kbuild-legacy

lab-kernels:
	@scripts/install-deps.sh --lab
	@[ -r $(LAB_STOCK)/bzImage ] || scripts/build-kernel.sh $(LAB_STOCK)
	@[ -r $(LAB_LEGACY)/bzImage ] || scripts/build-kernel.sh $(LAB_LEGACY) \
		--patch patches/linux-6.1-legacy-referenced.patch

test-lab: build lab-kernels
	CP_LAB_KERNEL=$(LAB_STOCK)/bzImage CP_LAB_LEGACY=$(LAB_LEGACY)/bzImage \
		ctest --test-dir $(BUILD) --output-on-failure -R '^real\.lab_'

lint:
	@scripts/lint-determinism.sh

run: build
	$(BUILD)/cachepressure compare seed

bench: build
	@bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
