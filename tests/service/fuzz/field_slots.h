// Every field of a message that a value mutator can reach, found by protobuf reflection:
// scalars of the message and of its present sub-messages (each element of a repeated
// sub-message), named as the request spells them ("config.splines[0].points[1].x").
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <functional>
#include <string>
#include <vector>

namespace throng::fuzz {

struct FieldSlot {
  google::protobuf::Message* owner;
  const google::protobuf::FieldDescriptor* field;
  std::string path;  // the owner's path and the field's name
};

// Fields for which `want` holds. Repeated scalar fields count only when not empty
// (`include_empty_lists` also takes empty ones and repeated messages, for resizing).
std::vector<FieldSlot> CollectSlots(
    google::protobuf::Message* m,
    const std::function<bool(const google::protobuf::FieldDescriptor&)>& want,
    bool include_empty_lists = false);

}  // namespace throng::fuzz
