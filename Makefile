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

# Until the service lands: the engine on RVO2's circle (1,000 agents, run until all are
# home) and random crowds (10,000 agents, 200 ticks), with the plain-RVO2 baseline on the
# same inputs, on the best backend here. Compare pair_steps (overlaps) and at_goal.
demo: build
	$(BUILD)/bench/throng-bench-orca --backends cuda,cpu --scenarios circle --sizes 1000 --ticks 3600 --warmup 0 --baseline
	$(BUILD)/bench/throng-bench-orca --backends cuda,cpu --scenarios random --sizes 10000 --ticks 200 --warmup 0 --baseline

clean:
	rm -rf $(BUILD)
