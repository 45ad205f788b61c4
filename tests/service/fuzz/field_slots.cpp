#include "tests/service/fuzz/field_slots.h"

namespace throng::fuzz {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

void Collect(Message* m, const std::string& prefix,
             const std::function<bool(const FieldDescriptor&)>& want, bool include_empty_lists,
             std::vector<FieldSlot>* out) {
  const auto* d = m->GetDescriptor();
  const auto* r = m->GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    const std::string path = prefix + f->name();
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        if (include_empty_lists && want(*f)) out->push_back({m, f, path});
        for (int k = 0; k < r->FieldSize(*m, f); ++k) {
          Collect(r->MutableRepeatedMessage(m, f, k), path + "[" + std::to_string(k) + "].", want,
                  include_empty_lists, out);
        }
      } else if (r->HasField(*m, f)) {
        Collect(r->MutableMessage(m, f), path + ".", want, include_empty_lists, out);
      }
      continue;
    }
    if (!want(*f)) continue;
    if (f->is_repeated() && r->FieldSize(*m, f) == 0 && !include_empty_lists) continue;
    out->push_back({m, f, path});
  }
}

}  // namespace

std::vector<FieldSlot> CollectSlots(Message* m,
                                    const std::function<bool(const FieldDescriptor&)>& want,
                                    bool include_empty_lists) {
  std::vector<FieldSlot> out;
  Collect(m, "", want, include_empty_lists, &out);
  return out;
}

}  // namespace throng::fuzz
