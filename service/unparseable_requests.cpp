#include "service/unparseable_requests.h"

#include <string_view>

#include "service/simulation_service.h"

namespace throng::service {
namespace {

using grpc::experimental::InterceptionHookPoints;
using grpc::experimental::InterceptorBatchMethods;
using grpc::experimental::ServerRpcInfo;

class UnparseableRequestCounter final : public grpc::experimental::Interceptor {
 public:
  UnparseableRequestCounter(ServerRpcInfo* info, ServiceMetrics* metrics)
      : info_(info), metrics_(metrics) {}

  void Intercept(InterceptorBatchMethods* methods) override {
    if (info_->type() == ServerRpcInfo::Type::UNARY &&
        methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE) &&
        methods->GetRecvMessage() == nullptr) {
      unparseable_ = true;
    }
    if (unparseable_ &&
        methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      metrics_->RecordUnparseable(MethodName(info_->method()),
                                  StatusCodeName(methods->GetSendStatus().error_code()));
    }
    methods->Proceed();
  }

 private:
  // "/throng.v1.Simulation/Step" -> "Step" (other services' methods become "other").
  static std::string_view MethodName(std::string_view full) {
    constexpr std::string_view kPrefix = "/throng.v1.Simulation/";
    if (full.substr(0, kPrefix.size()) != kPrefix) return "other";
    return full.substr(kPrefix.size());
  }

  ServerRpcInfo* info_;
  ServiceMetrics* metrics_;
  bool unparseable_ = false;
};

}  // namespace

grpc::experimental::Interceptor* UnparseableRequestCounterFactory::CreateServerInterceptor(
    ServerRpcInfo* info) {
  return new UnparseableRequestCounter(info, metrics_);
}

}  // namespace throng::service
