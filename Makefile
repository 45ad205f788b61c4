# Thin wrapper over scripts/setup, CMake and CTest. `make test` is what CI runs.
BUILD ?= build
CUDA ?= AUTO
CMAKE_ARGS ?=
JOBS ?= $(shell nproc)

.PHONY: all setup configure build test bench demo clean

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
	$(BUILD)/bench/throng-bench-orca --backends cpu,cuda --sizes 1000,10000,100000 --baseline
	$(BUILD)/bench/throng-bench-splines --backends cpu,cuda

# Until the service lands: the engine on RVO2's circle and random crowds, with the
# plain-RVO2 baseline beside it, on the best backend here.
demo: build
	$(BUILD)/bench/throng-bench-orca --backends cuda,cpu --scenarios circle,random --sizes 1000,10000 --ticks 50 --baseline

clean:
	rm -rf $(BUILD)
