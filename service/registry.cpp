#include "service/registry.h"

#include <algorithm>

namespace throng::service {

bool WorldRegistry::Reserve() {
  std::lock_guard lock(mu_);
  if (reserved_ >= max_worlds_) return false;
  ++reserved_;
  return true;
}

void WorldRegistry::Release() {
  std::lock_guard lock(mu_);
  --reserved_;
}

std::string WorldRegistry::NewId() {
  std::lock_guard lock(mu_);
  std::string id;
  do {
    id = "w-" + std::to_string(next_id_++);
  } while (worlds_.count(id) != 0);
  return id;
}

std::shared_ptr<WorldEntry> WorldRegistry::Insert(std::unique_ptr<WorldEntry>&& entry) {
  std::lock_guard lock(mu_);
  if (worlds_.count(entry->id) != 0) return nullptr;
  std::shared_ptr<WorldEntry> shared(std::move(entry));
  worlds_.emplace(shared->id, shared);
  order_.push_back(shared->id);
  if (worlds_gauge_) worlds_gauge_(static_cast<int64_t>(worlds_.size()));
  return shared;
}

std::shared_ptr<WorldEntry> WorldRegistry::Find(const std::string& id) const {
  std::lock_guard lock(mu_);
  const auto it = worlds_.find(id);
  return it == worlds_.end() ? nullptr : it->second;
}

std::shared_ptr<WorldEntry> WorldRegistry::Remove(const std::string& id) {
  std::lock_guard lock(mu_);
  const auto it = worlds_.find(id);
  if (it == worlds_.end()) return nullptr;
  auto entry = std::move(it->second);
  worlds_.erase(it);
  order_.erase(std::find(order_.begin(), order_.end(), id));
  --reserved_;
  if (worlds_gauge_) worlds_gauge_(static_cast<int64_t>(worlds_.size()));
  return entry;
}

std::vector<std::shared_ptr<WorldEntry>> WorldRegistry::List() const {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<WorldEntry>> out;
  out.reserve(order_.size());
  for (const auto& id : order_) out.push_back(worlds_.at(id));
  return out;
}

int64_t WorldRegistry::size() const {
  std::lock_guard lock(mu_);
  return static_cast<int64_t>(worlds_.size());
}

void WorldRegistry::UpdatePopulation(int64_t agents_delta, int64_t vehicles_delta) {
  if (agents_delta == 0 && vehicles_delta == 0) return;
  std::lock_guard lock(population_mu_);
  agents_ += agents_delta;
  vehicles_ += vehicles_delta;
  if (population_gauge_) population_gauge_(agents_, vehicles_);
}

}  // namespace throng::service
