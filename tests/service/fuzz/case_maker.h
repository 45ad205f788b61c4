// Draws fuzz cases: a class by weight, then a valid base request of one of the base
// worlds, mutated the way that class mutates.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "tests/service/fuzz/base_worlds.h"
#include "tests/service/fuzz/fuzz_case.h"

namespace throng::fuzz {

// A base world as the case maker sees it: its layout, id and the next valid tick.
struct WorldView {
  int index = -1;
  const BaseScene* scene = nullptr;
  std::string id;
  uint64_t next_tick = 1;
};

class CaseMaker {
 public:
  explicit CaseMaker(uint64_t seed) : rng_(seed) {}

  CaseClass PickClass();
  int PickWorld(int worlds);
  FuzzCase Make(CaseClass klass, const WorldView& world);
  std::mt19937_64& rng() { return rng_; }

 private:
  FuzzCase Valid(const WorldView& w);
  FuzzCase BitFlip(const WorldView& w);
  FuzzCase Values(CaseClass klass, const WorldView& w);  // extreme and non-finite
  FuzzCase ColumnLength(const WorldView& w);
  FuzzCase Huge(const WorldView& w);
  // A Solve or CreateWorld of the world's scene with `mutations` value mutations (-1: a
  // random number of them).
  FuzzCase Solve(const WorldView& w, int mutations = -1);
  FuzzCase Create(const WorldView& w, int mutations = -1);
  FuzzCase Stream(const WorldView& w);
  FuzzCase Advance(const WorldView& w);
  FuzzCase OddId(const WorldView& w);

  std::mt19937_64 rng_;
};

}  // namespace throng::fuzz
