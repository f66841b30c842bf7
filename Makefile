# Thin wrapper around CMake: the README's commands.
#   make        build build/cachepressure
#   make run    the main job: the seed experiment, both policies
#   make test   the whole suite, then again with ASan+UBSan
#   make bench  benchmarks (not part of the tests)

BUILD     ?= build
SAN_BUILD ?= build-san
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
# CI sets CI=true: warnings become errors there.
WERROR    := $(if $(CI),ON,OFF)
CMAKE_ARGS ?=

.PHONY: all build deps test test-normal test-sanitize run bench lint clean

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

lint:
	@scripts/lint-determinism.sh

run: build
	$(BUILD)/cachepressure compare seed

bench: build
	@bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
