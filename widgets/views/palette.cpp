// SPDX-License-Identifier: MIT
#include "widgets/views/palette.h"

#include <array>

namespace sl::gui::palette {

QColor category(int index) {
    // Tableau-like hues, mid saturation: readable with black text and distinct on screen and print.
    static const std::array<QRgb, 12> colours = {0x4e79a7, 0xf28e2b, 0x59a14f, 0xb07aa1, 0x76b7b2, 0xedc948,
                                                 0xff9da7, 0x9c755f, 0xbab0ac, 0x86bcb6, 0xd4a6c8, 0x8cd17d};
    const auto i = static_cast<size_t>(index < 0 ? -index : index) % colours.size();
    return QColor::fromRgb(colours[i]);
}

QColor distinct(int index, int count) {
    constexpr int kCategories = 12;
    if (count <= kCategories) return category(index);
    const double hue = static_cast<double>(index % count) / count;
    return index % 2 ? QColor::fromHsvF(static_cast<float>(hue), 0.55f, 0.78f)
                     : QColor::fromHsvF(static_cast<float>(hue), 0.38f, 0.96f);
}

QColor forName(const QString& name) { return category(static_cast<int>(qHash(name, 7) % 1000)); }

QColor textOn(const QColor& fill) {
    // luma, not HSL lightness: a saturated yellow-green (the op-time ramp's light end) is light to the eye
    const double luma = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luma > 0.5 ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white);
}

}   // namespace sl::gui::palette
