// SPDX-License-Identifier: MIT
#include "core/io/dotprescan.h"

#include "core/io/ioutil.h"

#include <cctype>

namespace sl::io_detail {
namespace {

/// Walks the text once, token by token, keeping only what the limits need.
class DotScanner {
public:
    DotScanner(std::string_view text, const std::string& source) : m_text(text), m_source(source) {}

    void run() {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\n') newline();
            else if (c == '"') quoted();
            else if (c == '<') html();
            else if (c == '/' && peek(1) == '/') skipLine();
            else if (c == '#' && atLineStart()) skipLine();
            else if (c == '/' && peek(1) == '*') blockComment();
            else if (c == '-' && (peek(1) == '>' || peek(1) == '-')) edgeOperator();
            else if (isIdChar(c)) identifier();
            else punctuation(c);
        }
        checkLine();
    }

private:
    static bool isIdChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || (c & 0x80); }
    char peek(std::size_t ahead) const { return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0'; }
    bool atLineStart() const {
        for (std::size_t i = m_lineStart; i < m_pos; ++i)
            if (!std::isspace(static_cast<unsigned char>(m_text[i]))) return false;
        return true;
    }

    void newline() {
        checkLine();
        ++m_line;
        ++m_pos;
        m_lineStart = m_pos;
    }
    void checkLine() const {
        const std::size_t length = m_pos - m_lineStart;
        if (static_cast<std::int64_t>(length) > limits().lineBytes)
            failAt(m_source, m_line, "a line of " + std::to_string(length) + " bytes" + limitNote("line-bytes", static_cast<double>(limits().lineBytes)));
    }
    void checkToken(std::size_t start, std::int64_t line, const char* what) const {
        const std::size_t length = m_pos - start;
        if (static_cast<std::int64_t>(length) > limits().tokenBytes)
            failAt(m_source, line, std::string(what) + " of " + std::to_string(length) + " bytes" + limitNote("token-bytes", static_cast<double>(limits().tokenBytes)));
    }
    /// Moves past one character, keeping line numbers right inside strings and comments.
    void advance() {
        if (m_text[m_pos] == '\n') {
            checkLine();
            ++m_line;
            m_lineStart = m_pos + 1;
        }
        ++m_pos;
    }

    void quoted() {
        const std::size_t start = m_pos;
        const std::int64_t line = m_line;
        ++m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != '"') {
            if (m_text[m_pos] == '\\' && m_pos + 1 < m_text.size()) advance();
            advance();
            if (static_cast<std::int64_t>(m_pos - start) > limits().tokenBytes) checkToken(start, line, "a quoted string");
        }
        ++m_pos;
        operand();
    }
    void html() {   // <...> with nested angle brackets
        const std::size_t start = m_pos;
        const std::int64_t line = m_line;
        int depth = 0;
        do {
            if (m_text[m_pos] == '<') ++depth;
            if (m_text[m_pos] == '>') --depth;
            advance();
            if (static_cast<std::int64_t>(m_pos - start) > limits().tokenBytes) checkToken(start, line, "an HTML string");
        } while (m_pos < m_text.size() && depth > 0);
        operand();
    }
    void identifier() {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && isIdChar(m_text[m_pos])) ++m_pos;
        checkToken(start, m_line, "a name");
        operand();
    }
    void skipLine() {
        while (m_pos < m_text.size() && m_text[m_pos] != '\n') ++m_pos;
    }
    void blockComment() {
        m_pos += 2;
        while (m_pos < m_text.size() && !(m_text[m_pos] == '*' && peek(1) == '/')) advance();
        m_pos += 2;
    }

    // An edge chain is operand (op operand)*: an operand right after an operand ends the chain, as
    // does any punctuation except a port's ':'.
    void operand() {
        if (m_lastWasOperand) m_chain = 0;
        m_lastWasOperand = true;
    }
    void edgeOperator() {
        m_pos += 2;
        m_lastWasOperand = false;
        if (++m_chain > limits().edgeChain)
            failAt(m_source, m_line, "an edge chain a -> b -> ... of more than " + std::to_string(limits().edgeChain) + " edges in one statement" +
                                         limitNote("edge-chain", static_cast<double>(limits().edgeChain)) + "; write one edge per statement");
    }
    void punctuation(char c) {
        ++m_pos;
        if (std::isspace(static_cast<unsigned char>(c))) return;
        if (c == ':') {   // node:port keeps the chain going
            m_lastWasOperand = false;
            return;
        }
        m_chain = 0;
        m_lastWasOperand = false;
    }

    std::string_view m_text;
    const std::string& m_source;
    std::size_t m_pos = 0, m_lineStart = 0;
    std::int64_t m_line = 1;
    std::int64_t m_chain = 0;
    bool m_lastWasOperand = false;
};

} // namespace

void prescanDot(std::string_view text, const std::string& source) {
    DotScanner(text, source).run();
}

} // namespace sl::io_detail
