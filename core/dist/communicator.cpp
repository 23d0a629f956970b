// SPDX-License-Identifier: MIT
#include "core/dist/communicator.h"

#include "core/plugin/neuralmodule.h"

#include <mutex>

namespace sl::dist {

namespace {

class LocalCommunicator final : public Communicator {
public:
    explicit LocalCommunicator(DistOptions o) : m_options(std::move(o)) {}
    const DistOptions& options() const override { return m_options; }
    std::vector<std::string> allGather(const std::string& bytes) override { return {bytes}; }
    bool anyTrue(bool flag) override { return flag; }
    void barrier() override {}

private:
    DistOptions m_options;
};

std::mutex& factoryMutex() {
    static std::mutex m;
    return m;
}
CommunicatorFactory& factory() {
    static CommunicatorFactory f;
    return f;
}

} // namespace

void setCommunicatorFactory(CommunicatorFactory f) {
    const std::lock_guard lock(factoryMutex());
    factory() = std::move(f);
}

std::unique_ptr<Communicator> connect(const DistOptions& options) {
    if (!options.distributed()) return std::make_unique<LocalCommunicator>(options);
    const neural::ModuleStatus& status = neural::ensureNeuralMethods();
    CommunicatorFactory f;
    {
        const std::lock_guard lock(factoryMutex());
        f = factory();
    }
    if (!f)
        throw DistError("distributed runs use LibTorch's c10d, in the neural module, which is unavailable: " +
                        (status.error.empty() ? std::string("it registered no communicator") : status.error));
    return f(options);
}

} // namespace sl::dist
