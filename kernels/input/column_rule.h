// How the values of one snapshot column are checked: the `rule` of a row in the column
// tables (kernels/world/column_tables.h). CheckColumn (column_checks.h) applies it.
#pragma once

namespace throng {

// Whether a snapshot must carry a column (an optional one is empty when absent).
enum class ColumnNeed { kRequired, kOptional };

struct ColumnRule {
  enum class Kind {
    kBounded,      // finite and |v| <= bound
    kSize,         // finite, > 0 and within [kMinSize, bound]: radii, lengths, max speeds
    kNonNegative,  // finite and within [0, bound]
    kId,           // unique within the batch
    kByHand,       // a check of its own reads the values (the length is still checked)
  };
  Kind kind = Kind::kByHand;
  float bound = 0.f;
  const char* unit = "";
};

constexpr ColumnRule Bounded(float bound, const char* unit) {
  return {ColumnRule::Kind::kBounded, bound, unit};
}
constexpr ColumnRule Size(float bound, const char* unit) {
  return {ColumnRule::Kind::kSize, bound, unit};
}
constexpr ColumnRule NonNegative(float bound, const char* unit) {
  return {ColumnRule::Kind::kNonNegative, bound, unit};
}
constexpr ColumnRule Id() { return {ColumnRule::Kind::kId, 0.f, ""}; }
constexpr ColumnRule ByHand() { return {}; }

// What the tables say about one column: its name, whether it must be there, its rule.
struct ColumnInfo {
  const char* name;
  ColumnNeed need;
  ColumnRule rule;
};

}  // namespace throng
