// SPDX-License-Identifier: MIT
// Sizes from a Chakra node's IOInfo (chakrasizes.h): PyTorch's dtype spellings, the list literals
// of IOInfo.shapes and IOInfo.types, and the bytes they come to.
#include "core/io/chakra/chakrasizes.h"
#include "core/io/ioutil.h"
#include "core/util/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <vector>

namespace sl::io_detail::chakra {

/// A Python or JSON list literal of whole numbers, as IOInfo.shapes holds it: "[[8, 1024], []]".
struct Literal {
    bool isList = false;
    double value = 0;
    std::vector<Literal> items;
};

namespace {

/// Bytes of a tensor's elements from PyTorch's dtype spelling in "Tensor(<dtype>)".
struct TorchType {
    std::string_view name;
    DType dtype;
    double width;
};
constexpr std::array<TorchType, 30> kTorchTypes{{{"float", DType::F32, 4},
                                                 {"float32", DType::F32, 4},
                                                 {"double", DType::F64, 8},
                                                 {"float64", DType::F64, 8},
                                                 {"half", DType::F16, 2},
                                                 {"float16", DType::F16, 2},
                                                 {"c10::Half", DType::F16, 2},
                                                 {"bfloat16", DType::BF16, 2},
                                                 {"c10::BFloat16", DType::BF16, 2},
                                                 {"c10::Float8_e4m3fn", DType::F8, 1},
                                                 {"c10::Float8_e5m2", DType::F8, 1},
                                                 {"complex64", DType::Unknown, 8},
                                                 {"c10::complex<float>", DType::Unknown, 8},
                                                 {"complex128", DType::Unknown, 16},
                                                 {"c10::complex<double>", DType::Unknown, 16},
                                                 {"bool", DType::Bool, 1},
                                                 {"uint8", DType::I8, 1},
                                                 {"unsigned char", DType::I8, 1},
                                                 {"int8", DType::I8, 1},
                                                 {"signed char", DType::I8, 1},
                                                 {"int16", DType::I16, 2},
                                                 {"short", DType::I16, 2},
                                                 {"int", DType::I32, 4},
                                                 {"int32", DType::I32, 4},
                                                 {"unsigned int", DType::I32, 4},
                                                 {"long", DType::I64, 8},
                                                 {"int64", DType::I64, 8},
                                                 {"long int", DType::I64, 8},
                                                 {"long long", DType::I64, 8},
                                                 {"c10::qint8", DType::I8, 1}}};

const TorchType* torchType(std::string_view type) {
    if (type.substr(0, 7) != "Tensor(" || type.back() != ')') return nullptr;
    const std::string_view inner = type.substr(7, type.size() - 8);
    for (const TorchType& t : kTorchTypes)
        if (t.name == inner) return &t;
    return nullptr;
}

constexpr int kMaxShapeDepth = 8;   // a tensor list of tensors is depth 3; deeper is not a shape

class LiteralParser {
public:
    explicit LiteralParser(std::string_view text) : m_text(text) {}

    std::optional<Literal> parseAll() {
        auto v = value(0);
        skipBlanks();
        if (!v || m_pos != m_text.size()) return std::nullopt;
        return v;
    }

private:
    void skipBlanks() {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    std::optional<Literal> value(int depth) {
        skipBlanks();
        if (m_pos >= m_text.size() || depth > kMaxShapeDepth) return std::nullopt;
        Literal out;
        if (m_text[m_pos] != '[' && m_text[m_pos] != '(') {   // a number (tuples print with parentheses)
            std::size_t end = m_pos;
            while (end < m_text.size() && (std::isdigit(static_cast<unsigned char>(m_text[end])) || m_text[end] == '-'))
                ++end;
            const auto v = parseInteger(m_text.substr(m_pos, end - m_pos));
            if (!v) return std::nullopt;
            m_pos = end;
            out.value = static_cast<double>(*v);
            return out;
        }
        const char close = m_text[m_pos] == '[' ? ']' : ')';
        ++m_pos;
        out.isList = true;
        skipBlanks();
        if (m_pos < m_text.size() && m_text[m_pos] == close) {
            ++m_pos;
            return out;
        }
        while (true) {
            auto item = value(depth + 1);
            if (!item) return std::nullopt;
            out.items.push_back(std::move(*item));
            skipBlanks();
            if (m_pos >= m_text.size()) return std::nullopt;
            if (m_text[m_pos] == close) {
                ++m_pos;
                return out;
            }
            if (m_text[m_pos] != ',') return std::nullopt;
            ++m_pos;
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// The strings of a Python or JSON list of strings, as IOInfo.types holds it: "['Tensor(float)', 'Int']".
std::optional<std::vector<std::string_view>> stringList(std::string_view text) {
    text = trimBlanks(text);
    if (text.size() < 2 || text.front() != '[' || text.back() != ']') return std::nullopt;
    std::vector<std::string_view> out;
    std::size_t i = 1;
    const std::size_t end = text.size() - 1;
    auto skip = [&] {
        while (i < end && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
    };
    skip();
    while (i < end) {
        const char quote = text[i];
        if (quote != '\'' && quote != '"') return std::nullopt;
        const std::size_t close = text.find(quote, i + 1);
        if (close == std::string_view::npos || close >= end) return std::nullopt;
        out.push_back(text.substr(i + 1, close - i - 1));
        i = close + 1;
        skip();
        if (i < end && text[i] != ',') return std::nullopt;
        if (i < end) ++i;
        skip();
    }
    return out;
}

/// Splits "GenericList[Tensor(float),Tensor(int)]"'s items at the commas outside brackets.
std::vector<std::string_view> genericListItems(std::string_view type) {
    std::vector<std::string_view> out;
    const std::string_view inner = type.substr(12, type.size() - 13);
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= inner.size(); ++i) {
        const char c = i < inner.size() ? inner[i] : ',';
        if (c == '(' || c == '[' || c == '<')
            ++depth;
        else if (c == ')' || c == ']' || c == '>')
            --depth;
        else if (c == ',' && depth == 0) {
            out.push_back(trimBlanks(inner.substr(start, i - start)));
            start = i + 1;
        }
    }
    return out;
}

}   // namespace

Sizes SizeReader::read(std::string_view shapes, std::string_view types) {
    Sizes out;
    const auto shape = LiteralParser(shapes).parseAll();
    const auto type = stringList(types);
    if (!shape || !shape->isList || !type || type->size() != shape->items.size()) {
        out.known = false;
        return out;
    }
    for (std::size_t i = 0; i < type->size(); ++i) add(out, (*type)[i], shape->items[i]);
    return out;
}

void SizeReader::add(Sizes& out, std::string_view type, const Literal& shape) {
    if (type.substr(0, 12) == "GenericList[" && type.back() == ']') {
        const auto items = genericListItems(type);
        if (!shape.isList || items.empty()) return;   // a list of non-tensors, e.g. GenericList[Int]
        for (std::size_t j = 0; j < shape.items.size(); ++j)
            add(out, items[std::min(j, items.size() - 1)], shape.items[j]);
        return;
    }
    if (type.substr(0, 6) != "Tensor") return;   // Int, Double, Bool, Device, None, String: no bytes
    const TorchType* t = torchType(type);
    if (!t || !shape.isList) {
        out.known = false;
        return;
    }
    double elements = 1;
    for (const Literal& d : shape.items) {
        if (d.isList || d.value < 0) {
            out.known = false;
            return;
        }
        elements *= d.value;
        if (elements > limits().tensorBytes)
            m_tooBig(std::string(type) + " of " + formatNumber(elements) + "+ elements");
    }
    const double bytes = elements * t->width;
    if (bytes > limits().tensorBytes) m_tooBig(std::string(type) + " of " + formatNumber(bytes) + " bytes");
    out.bytes += bytes;
    if (out.dtype == DType::Unknown) out.dtype = t->dtype;
}

}   // namespace sl::io_detail::chakra
