#include "tests/service/fuzz/raw_call.h"

#include <future>
#include <vector>

namespace throng::fuzz {

grpc::Status RawUnaryCall(grpc::GenericStub& stub, grpc::ClientContext* context,
                          const std::string& method, const std::string& request,
                          std::string* response) {
  grpc::Slice slice(request);
  grpc::ByteBuffer in(&slice, 1), out;
  std::promise<grpc::Status> done;
  stub.UnaryCall(context, method, grpc::StubOptions(), &in, &out,
                 [&done](grpc::Status s) { done.set_value(std::move(s)); });
  grpc::Status status = done.get_future().get();  // the context's deadline bounds the wait
  response->clear();
  std::vector<grpc::Slice> slices;
  if (status.ok() && out.Dump(&slices).ok()) {
    for (const auto& s : slices) {
      response->append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
  }
  return status;
}

}  // namespace throng::fuzz
