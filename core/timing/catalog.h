// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The device catalogue and the platform presets (docs/time.md). The files of resources/devices
/// and resources/platforms are compiled into core, so every build has them; a user's own entries
/// (the one `schedlab-cli calibrate` writes for this machine) are read from
/// $XDG_DATA_HOME/schedlab/devices (else ~/.local/share/schedlab/devices) and may add devices or
/// replace a built-in one of the same id.
///
/// \code
///   const sl::DeviceCatalog& cat = sl::DeviceCatalog::instance();
///   const sl::DeviceSpec& h100 = cat.device("h100-sxm5-80gb");        // throws IoError listing the ids
///   const sl::PlatformPreset& dgx = cat.preset("dgx-a100");
/// \endcode

#include "core/timing/devicespec.h"

#include <optional>
#include <string>
#include <vector>

namespace sl {

/// A fabric of a preset: inside a host (a switch such as NVSwitch, or PCIe through the host) or
/// between hosts (a NIC per device or per host into a non-blocking network).
struct Fabric {
    std::string kind;           ///< "switch", "pcie" (inside a host); "nic-per-device", "nic-per-host"
    double bandwidthGBps = 0;   ///< per direction, per port
    double latencyUs = 0;       ///< device to device, end to end
    std::string source;
};

struct PlatformPreset {
    std::string id;             ///< "dgx-a100": what --preset names
    std::string name;           ///< "DGX A100: 8 x A100 SXM4 80 GB, NVSwitch"
    std::string source;
    std::string device;         ///< catalogue id of every device
    int hosts = 1;
    int devicesPerHost = 1;
    std::optional<Fabric> intraHost;
    std::optional<Fabric> interHost;

    int deviceCount() const { return hosts * devicesPerHost; }
};

/// Throws IoError naming `sourceName` and the field.
PlatformPreset parsePreset(std::string_view json, const std::string& sourceName);

class DeviceCatalog {
public:
    /// The built-in files and the user's directory, read on first use (thread-safe). A bad file
    /// in the user's directory is left out with a warning (warnings()); built-in files are tested.
    /// The reference stays valid for the life of the program, also after reload().
    static const DeviceCatalog& instance();
    /// Reads the user's directory again (an entry written since, e.g. by learning a machine in the
    /// explorer): later instance() calls see the new catalogue, references taken earlier keep the
    /// old one (it is kept, never freed: a few kilobytes per reload). Thread-safe.
    static const DeviceCatalog& reload();
    /// Built-ins, then the files of `userDirectory` (when not empty).
    static DeviceCatalog load(const std::string& userDirectory);
    /// $XDG_DATA_HOME/schedlab/devices, else $HOME/.local/share/schedlab/devices.
    static std::string userDirectory();
    /// userDirectory()/ID.json, where a user's entry `id` is written. Throws IoError for an id
    /// that is not a plain file name (letters, digits, - _ .) or when neither XDG_DATA_HOME nor
    /// HOME is set.
    static std::string userEntryPath(const std::string& id);

    const std::vector<DeviceSpec>& devices() const { return m_devices; }
    const std::vector<PlatformPreset>& presets() const { return m_presets; }
    const DeviceSpec* findDevice(const std::string& id) const;
    const PlatformPreset* findPreset(const std::string& id) const;
    /// Throw IoError "unknown device 'x' (one of: ...)".
    const DeviceSpec& device(const std::string& id) const;
    const PlatformPreset& preset(const std::string& id) const;
    const std::vector<std::string>& warnings() const { return m_warnings; }
    /// Adds or replaces (same id) a device.
    void addDevice(DeviceSpec d);

private:
    std::vector<DeviceSpec> m_devices;
    std::vector<PlatformPreset> m_presets;
    std::vector<std::string> m_warnings;
};

} // namespace sl
