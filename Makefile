# Thin wrapper over scripts/setup, CMake and CTest. `make test` is what CI runs.
BUILD ?= build
CUDA ?= AUTO
CMAKE_ARGS ?=
JOBS ?= $(shell nproc)

.PHONY: all setup configure build test bench clean

all: build

setup:
	scripts/setup

configure: setup
	cmake -S . -B $(BUILD) -G Ninja -DTHRONG_CUDA=$(CUDA) $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

bench: build
	$(BUILD)/bench/throng-bench-splines

clean:
	rm -rf $(BUILD)
