// SPDX-License-Identifier: MIT
#include "widgets/session/platformfile.h"

#include "core/io/graphio.h"

namespace sl::gui {

Platform readPlatformFile(const QString& path) { return loadPlatform(path.toStdString()); }

}   // namespace sl::gui
