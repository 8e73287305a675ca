/* thtml_svg.c: report.html's SVG allow-list (html.c, sl_html_svg_allowed): gnuplot's svg
 * terminal output passes; every active payload of issue 29 (event handlers, <script> in any
 * case, javascript: and entity-hidden javascript&#58; links, markup after </svg>, <image
 * onerror>, foreignObject, comments that end early in HTML, //host references) does not. */
#include <string.h>
#include "html.h"
#include "sl_test.h"

static int allowed(const char *s)
{
    const char *root = NULL;
    return sl_html_svg_allowed(s, strlen(s), &root);
}

/* The shape of gnuplot 5.4's svg terminal output (elements and attributes it writes). */
static const char gnuplot_svg[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
    "<svg \n viewBox=\"0 0 1230 560\"\n xmlns=\"http://www.w3.org/2000/svg\"\n"
    " xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n\n<title>Gnuplot</title>\n"
    "<desc>Produced by GNUPLOT 5.4 patchlevel 4 </desc>\n\n<g id=\"gnuplot_canvas\">\n\n"
    "<rect x=\"0\" y=\"0\" width=\"1230\" height=\"560\" fill=\"none\"/>\n<defs>\n\n"
    "\t<circle id='gpDot' r='0.5' stroke-width='0.5' stroke='currentColor'/>\n"
    "\t<path id='gpPt0' stroke-width='0.267' stroke='currentColor' d='M-1,0 h2 M0,-1 v2'/>\n"
    "\t<use xlink:href='#gpPt5' id='gpPt6' fill='currentColor' stroke='none'/>\n"
    "\t<filter id='textbox' filterUnits='objectBoundingBox' x='0' y='0' height='1' width='1'>\n"
    "\t  <feFlood flood-color='white' flood-opacity='1' result='bgnd'/>\n"
    "\t  <feComposite in='SourceGraphic' in2='bgnd' operator='atop'/>\n\t</filter>\n"
    "</defs>\n<g fill=\"none\" color=\"white\" stroke=\"currentColor\" stroke-width=\"1.00\" "
    "stroke-linecap=\"butt\" stroke-linejoin=\"miter\">\n</g>\n"
    "\t<g id=\"gnuplot_plot_1\" ><title>atomic-thread &amp; co</title>\n"
    "\t<g transform=\"translate(262.86,60.01)\" stroke=\"none\" fill=\"black\" font-family=\"sans\" "
    "font-size=\"10.00\"  text-anchor=\"end\">\n\t\t<text><tspan font-family=\"sans\" >1e-08</tspan></text>\n"
    "\t</g>\n\t<path stroke='rgb(148,   0, 211)'  d='M173.3,501.4 L291.4,459.3 '/></g>\n"
    "<g filter=\"url(#textbox)\" class=\"gridline\" stroke-dasharray=\"2,4\"></g>\n"
    "\t<g stroke='none' shape-rendering='crispEdges'>\n\t\t<polygon fill = 'rgb( 31, 119, 180)' "
    "fill-opacity = '0.850000' points = '212.40,65.63 245.10,65.63 '/>\n\t</g>\n"
    "</g>\n</svg>\n\n";

int main(void)
{
    CHECK(allowed(gnuplot_svg), "gnuplot's svg output is refused");
    static const char *const hostile[] = {
        "<svg onload=\"window.__slPwned=1\"><g/></svg>",
        "<svg ONLOAD=\"window.__slPwned=1\"><g/></svg>",
        "<svg><g onclick='x()'></g></svg>",
        "<svg><SCRIPT>window.__slPwned=1</SCRIPT></svg>",
        "<svg><script>window.__slPwned=1</script></svg>",
        "<svg><sCrIpT href=\"data:,x\"/></svg>",
        "<svg><a xlink:href=\"javascript:alert(1)\"><text>x</text></a></svg>",
        "<svg><use xlink:href=\"javascript:alert(1)\"/></svg>",
        "<svg><use href=\"JaVaScRiPt:alert(1)\"/></svg>",
        "<svg><use xlink:href=\"javascript&#58;alert(1)\"/></svg>",
        "<svg><text fill=\"javascript&#x3a;x\">t</text></svg>",
        "<svg><g></g></svg><img src=x onerror=\"window.__slPwned=1\">",
        "<svg></svg>\n<img src=x onerror=\"window.__slPwned=1\">",
        "<svg><image href=\"x\" onerror=\"window.__slPwned=1\"/></svg>",
        "<svg><image xlink:href=\"x.png\"/></svg>",
        "<svg><foreignObject><body onload=\"x()\"></body></foreignObject></svg>",
        "<svg><!-- --!><img src=x onerror=\"window.__slPwned=1\"> --></svg>",
        "<svg><![CDATA[<img src=x onerror=x()>]]></svg>",
        "<svg><title><img src=x onerror=\"window.__slPwned=1\"></title></svg>",
        "<svg><use xlink:href=\"//evil.example/x.svg#a\"/></svg>",
        "<svg><use xlink:href=\"x.svg#a\"/></svg>",
        "<svg><rect style=\"fill:url(javascript:alert(1))\"/></svg>",
        "<svg><rect fill=\"url(https://evil.example/x)\"/></svg>",
        "<svg><style>@import url(//evil.example/x.css);</style></svg>",
        "<svg><rect width=10/></svg>",
        "<svg><rect width/></svg>",
        "<svg><g></svg>",
        "<svg><g></rect></g></svg>",
        "<svg><animate attributeName=\"href\" to=\"javascript:alert(1)\"/></svg>",
        "<svg><set attributeName=\"onmouseover\" to=\"alert(1)\"/></svg>",
        "<svg><a href=\"#x\"><text>t</text></a></svg>",
        "<!DOCTYPE svg [<!ENTITY x \"<script>\">]><svg>&x;</svg>",
        "<g/><svg></svg>",
        "no svg here",
    };
    for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++)
        CHECK(!allowed(hostile[i]), "payload %zu inlinable: %s", i, hostile[i]);
    return sl_test_done("thtml_svg");
}
