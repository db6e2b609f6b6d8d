# sfcl — two commands on a fresh Debian machine (as root): `make serve` and `make test`.
PRESET ?= release
BUILD := build/$(PRESET)
SFCL := $(BUILD)/src/cli/sfcl
DEMO_MODEL ?= demo/sfcl-demo.gguf
TEST_MODEL := $(BUILD)/models/tiny.gguf
PORT ?= 8080
PREFIX ?= /usr/local

.PHONY: all bootstrap configure build test install serve bench bench-peer bench-gateway bench-real fuzz soak attack llama-server-tests clean format tidy

all: build

bootstrap:
	@scripts/bootstrap

$(BUILD)/build.ninja: CMakeLists.txt CMakePresets.json | bootstrap
	cmake --preset $(PRESET)

configure: bootstrap $(BUILD)/build.ninja

build: configure
	cmake --build --preset $(PRESET)

# TARGETS limits what is built, TESTS which CTest names run (a regex), e.g. the server tests under
# ThreadSanitizer: make test PRESET=tsan TARGETS="sfcl test_server" TESTS='Server|Ops|Lifecycle'
test: configure
	cmake --build --preset $(PRESET) $(if $(TARGETS),--target $(TARGETS))
	ctest --preset $(PRESET) $(if $(TESTS),-R '$(TESTS)')

# $(PREFIX)/bin/sfcl with its llama.cpp libraries in $(PREFIX)/lib/sfcl, the demo model in
# $(PREFIX)/share/sfcl (what `sfcl serve` serves without --model) and the docs; relocatable.
install: configure
	cmake --build --preset $(PRESET) --target sfcl
	cmake --install $(BUILD) --prefix $(PREFIX)

# Serves the bundled demo model (or, when it is absent, a tiny random-weight model that sfcl
# writes itself) on 127.0.0.1:$(PORT) with the Anthropic Messages and OpenAI APIs.
serve: build
	@model=$(DEMO_MODEL); if [ ! -f $$model ]; then model=$(TEST_MODEL); mkdir -p $(dir $(TEST_MODEL)); \
	  [ -f $$model ] || $(SFCL) make-test-model $$model; fi; \
	  exec $(SFCL) serve --model $$model --host 127.0.0.1 --port $(PORT) $(SERVE_FLAGS)

# What SFCL costs: off / anchor / per-token on the demo model and eval set (docs/BENCHMARKS.md),
# then the anchor-engine microbenchmarks.
bench: build
	$(SFCL) bench --model $(DEMO_MODEL) --set demo/eval.jsonl --out docs/bench-modes.svg $(BENCH_FLAGS)
	$(BUILD)/bench/sfcl_bench_anchor --benchmark_min_time=0.2

# sfcl serve vs llama-server (built once from the same llama.cpp bundle into .deps/) at 1/4/8 streams.
bench-peer: build
	scripts/build-llama-server
	$(SFCL) bench --no-modes --peer llama-server --model $(DEMO_MODEL) --set demo/eval.jsonl \
	  --out docs/bench-peer.svg $(BENCH_FLAGS)

# sfcl gateway (SFCL on) over two llama-server backends vs the backends hit directly (round-robin) at
# 1/4/8/16 streams: throughput, TTFT, gateway CPU per token, re-request cost per backtrack.
bench-gateway: build
	scripts/build-llama-server
	scripts/bench-gateway $(BENCH_FLAGS)

# Real shapes: a Qwen2-0.5B-shaped model (random weights, the real 151,936-token Qwen2 vocabulary,
# Q8_0 by llama.cpp's quantiser) written once into $(BUILD)/models, then off / anchor / per-token on
# it; with BENCH_PEER=1 also sfcl serve vs llama-server (scripts/build-llama-server: ~30 min once).
# Random weights say nothing about fidelity, only about speed.
REAL_MODEL := $(BUILD)/models/qwen2-0.5b-shape-q8_0.gguf
$(REAL_MODEL): | build
	@mkdir -p $(dir $@)
	$(SFCL) make-test-model $@ --vocab .deps/llama.cpp/models/ggml-vocab-qwen2.gguf --like qwen2-0.5b --type q8_0

bench-real: build $(REAL_MODEL)
	$(SFCL) bench --model $(REAL_MODEL) --set demo/eval.jsonl --items 6 --reps 3 -n 32 \
	  --out docs/bench-real.svg $(BENCH_FLAGS)
	@if [ "$(BENCH_PEER)" = 1 ]; then scripts/build-llama-server && \
	  $(SFCL) bench --no-modes --peer llama-server --model $(REAL_MODEL) --set demo/eval.jsonl --items 6 -n 32 \
	    --concurrency 1,4,8 --peer-reps 2 --requests-per-stream 2 --out docs/bench-real-peer.svg $(BENCH_FLAGS) && \
	  $(SFCL) bench --no-modes --peer llama-server --model $(REAL_MODEL) --set demo/eval.jsonl --items 6 -n 32 \
	    --concurrency 1,4,8 --peer-reps 2 --requests-per-stream 2 --sfcl-args=--no-kv-unified $(BENCH_FLAGS); fi

# Fault soak under ASan+UBSan (not part of make test): SOAK_SECONDS=120 by default.
soak: bootstrap
	cmake --preset asan && cmake --build --preset asan --target sfcl
	scripts/soak

# The long transport attacks (not part of make test): 2,000 slow + 2,000 idle connections, a burst,
# a 200 MB gzip bomb, 100 MB chunked, 100 MB of headers, 100 maximal rejected requests
# (docs/OPERATIONS.md). The short versions are in test_server.
attack: configure
	cmake --build --preset $(PRESET) --target sfcl
	SFCL=$(SFCL) ATTACK_MODEL=$(TEST_MODEL) scripts/attack
	SFCL=$(SFCL) scripts/attack-requests

# llama.cpp's own server test suite (pytest, Debian's packages) against sfcl serve on the demo model
# (not part of make test; counts and reasons in docs/OPERATIONS.md). Without LLAMA_TESTS: every file, one
# by one, with a per-file table; LLAMA_TESTS picks files and pytest options.
llama-server-tests: configure
	cmake --build --preset $(PRESET) --target sfcl
	SFCL=$(SFCL) scripts/llama-server-tests $(LLAMA_TESTS)

fuzz: bootstrap
	cmake --preset fuzz && cmake --build --preset fuzz --target fuzz_lexer fuzz_gateway_stream fuzz_verify_stream fuzz_request
	mkdir -p build/fuzz/corpus build/fuzz/corpus-gateway build/fuzz/corpus-verify build/fuzz/corpus-request
	cp tests/fuzz/corpus/* build/fuzz/corpus/
	build/fuzz/tests/fuzz/fuzz_lexer -runs=$${RUNS:-1000000} -max_len=4096 build/fuzz/corpus
	build/fuzz/tests/fuzz/fuzz_gateway_stream -runs=$${RUNS:-1000000} -max_len=8192 build/fuzz/corpus-gateway tests/fuzz/corpus-gateway
	build/fuzz/tests/fuzz/fuzz_verify_stream -runs=$${RUNS:-1000000} -max_len=8192 build/fuzz/corpus-verify tests/data/signed/responses
	build/fuzz/tests/fuzz/fuzz_request -runs=$${RUNS:-1000000} -max_len=4096 build/fuzz/corpus-request tests/fuzz/corpus-request

format:
	find src tests bench -name '*.cpp' -o -name '*.h' | xargs clang-format -i

tidy: build
	run-clang-tidy -p $(BUILD) -extra-arg=-Wno-unknown-warning-option src/ 2>/dev/null || \
	  clang-tidy -p $(BUILD) --extra-arg=-Wno-unknown-warning-option $$(find src -name '*.cpp')

clean:
	rm -rf build
