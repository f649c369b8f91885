import Testing
import WebListRenderer

@Suite("HTML")
struct HTMLTests {
    @Test func escapesTheFiveSpecialCharacters() {
        #expect(HTML.escape(#"& < > " '"#) == "&amp; &lt; &gt; &quot; &#39;")
        #expect(HTML.text("Fish & <Chips>").markup == "Fish &amp; &lt;Chips&gt;")
    }

    @Test func aScriptTagBecomesText() {
        let name = #"O'Connor <script>alert("x")</script>"#
        let row: HTML = "<span>\(name)</span>"
        #expect(row.markup == "<span>O&#39;Connor &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</span>")
        #expect(!row.markup.contains("<script"))
    }

    @Test func interpolatedTextCannotLeaveAQuotedAttribute() {
        let hostile = #"x" onmouseover="alert(1)"#
        let double: HTML = "<a title=\"\(hostile)\">t</a>"
        #expect(double.markup == "<a title=\"x&quot; onmouseover=&quot;alert(1)\">t</a>")
        let single: HTML = "<a title='\(#"x' onclick='alert(1)"#)'>t</a>"
        #expect(single.markup == "<a title='x&#39; onclick=&#39;alert(1)'>t</a>")
        // The escaped value holds no quote of either kind, so it cannot end the attribute.
        for value in [HTML.escape(hostile), HTML.escape(#"x' onclick='alert(1)"#)] {
            #expect(!value.contains("\"") && !value.contains("'"))
        }
    }

    @Test func nonASCIITextIsKeptAsItIs() {
        for text in ["Zoë Lindqvist", "Jürgen Großmann", "王小明", "김민준", "Kai 🦊", "👩‍💻 Dana", "Łukasz Wójcik"] {
            #expect(HTML.escape(text) == text)
            #expect(HTML.text(text).markup.unicodeScalars.elementsEqual(text.unicodeScalars))
        }
        #expect(HTML.escape("Zoë & 王") == "Zoë &amp; 王")
        #expect(HTML.escape("👩‍💻<b>") == "👩‍💻&lt;b&gt;")
    }

    @Test func ampersandsAreEscapedOnceEvenInEntities() {
        #expect(HTML.escape("&amp;") == "&amp;amp;")
        #expect(HTML.escape("&#39;") == "&amp;#39;")
    }

    @Test func literalsAreMarkupAndValuesAreEscaped() {
        let score = 42
        let name = "<b>Bold</b> & \"Quoted\""
        let row: HTML = "<b class=\"s\">\(score)</b> \(name)"
        #expect(row.markup == "<b class=\"s\">42</b> &lt;b&gt;Bold&lt;/b&gt; &amp; &quot;Quoted&quot;")
    }

    @Test func rawMarkupIsAnExplicitOptIn() {
        let icon = HTML.raw("<svg><use href=\"#star\"/></svg>")
        let row: HTML = "<span>\(icon) \(raw: "<i>x</i>") \("<i>y</i>")</span>"
        #expect(row.markup == "<span><svg><use href=\"#star\"/></svg> <i>x</i> &lt;i&gt;y&lt;/i&gt;</span>")
    }

    @Test func nestedFragmentsAreNotEscapedTwice() {
        let name = HTML.text("A & B")
        let row: HTML = "<li>\(name)</li>"
        #expect(row.markup == "<li>A &amp; B</li>")
    }

    @Test func concatenationAndJoining() {
        var html: HTML = "<b>"
        html += .text("<x>")
        html = html + "</b>"
        #expect(html.markup == "<b>&lt;x&gt;</b>")
        #expect([HTML.text("a<"), .raw("<br>"), .text("b")].joined(separator: " ").markup == "a&lt; <br> b")
        #expect(HTML.empty.isEmpty && !html.isEmpty)
    }

    @Test func textWithoutSpecialCharactersIsReturnedUnchanged() {
        let long = String(repeating: "plain text ", count: 1_000)
        #expect(HTML.escape(long) == long)
        #expect(HTML.escape("") == "")
        #expect(HTML.escape(long[...]) == long)
    }
}
