# Thin wrapper over scripts/setup, CMake and CTest. `make test` is what CI runs.
BUILD ?= build
CUDA ?= AUTO
CMAKE_ARGS ?=
JOBS ?= $(shell nproc)
SIZE ?= full

.PHONY: all setup configure build test test-fast build-times bench demo demo-engine clean

all: build

setup:
	scripts/setup

# The service is on: scripts/setup installs gRPC, and an older build folder may have it
# cached off.
configure: setup
	cmake -S . -B $(BUILD) -G Ninja -DTHRONG_CUDA=$(CUDA) -DTHRONG_BUILD_SERVICE=ON $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# One folder's cpu unit tests (tests/FOLDER: math, spatial, orca, reference, vehicles,
# steering, backends, world, scenarios): builds only that folder's test binary and runs
# the tests labelled with it. Configures only when the build folder has not been.
FOLDER ?= orca
test-fast:
	@test -f $(BUILD)/build.ninja || $(MAKE) configure BUILD=$(BUILD) CUDA=$(CUDA)
	cmake --build $(BUILD) -j $(JOBS) --target throng_$(FOLDER)_tests
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L '^$(FOLDER)$$'

# The build-time figures of docs/BUILDING.md: touch a solve header, rebuild and test.
build-times:
	scripts/build_times --build-dir $(BUILD)

bench: build
	$(BUILD)/bench/throng-bench-orca --backends cpu,cuda --sizes 1000,10000,100000 --baseline
	$(BUILD)/bench/throng-bench-splines --backends cpu,cuda

# The README's first command: throngd on a free loopback port, the town scenario through
# the Python client (10,000 pedestrians, 200 vehicles, 300 ticks; SIZE=small: 500
# pedestrians, 20 vehicles, 100 ticks), the summary on stdout, out/demo.gif and the plots
# under out/. Builds only what it runs (scripts/demo); no GPU needed.
demo: configure
	scripts/demo --build-dir $(BUILD) $(if $(filter small,$(SIZE)),--small)

# The engine alone, in process: RVO2's circle (1,000 agents, until all are home) and random
# crowds (10,000 agents, 200 ticks) beside the plain-RVO2 baseline on the same inputs.
demo-engine: build
	$(BUILD)/bench/throng-bench-orca --backends cuda,cpu --scenarios circle --sizes 1000 --ticks 3600 --warmup 0 --baseline
	$(BUILD)/bench/throng-bench-orca --backends cuda,cpu --scenarios random --sizes 10000 --ticks 200 --warmup 0 --baseline

clean:
	rm -rf $(BUILD)
