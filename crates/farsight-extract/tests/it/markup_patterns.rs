//! Markup conventions of many sites that the extraction used to lose
//! (issue #12, "Defects found on real pages"): each on a hand-written
//! page, checked in text and in Markdown.

use farsight_extract::{ExtractOptions, Format, extract};

use crate::{page, run};

/// Text and Markdown of a page of `test-data/`.
fn both(name: &str) -> (String, String) {
    (
        run(name, Format::Text).content,
        run(name, Format::Markdown).content,
    )
}

fn assert_contains(out: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(out.contains(w), "missing {w:?} in:\n{out}");
    }
}

// Issue #12: a block whose text is entirely a link was deleted with its
// content: a data table's cells and header, an infobox value, a list
// item's sub-list of links together with the item's prose.
#[test]
fn links_in_data_cells_and_under_list_prose_are_kept() {
    let (text, md) = both("link-cells.html");
    assert_contains(
        &text,
        &[
            "Longest river | Aire",
            "Mouth | River Ouse",
            // Labels in `td`: dom_smoothie's cleaning took this for layout.
            "County | North Yorkshire\nRegion | Yorkshire and the Humber",
            "River | Length | Town",
            "Aire | 114 km | Airmyn",
            "Nidd | 87 km | Nun Monkton",
            "- Becks that join the Aire above Leeds:\n  - Calder",
            "- The Wharfe is the fastest",
            "  - The Strid",
        ],
    );
    assert_contains(
        &md,
        &[
            "| Longest river | [Aire](https://example.com/rivers/aire) |",
            "| County | [North Yorkshire](https://example.com/counties/north-yorkshire) |",
            "| [River](https://example.com/articles/page.html?sort=name) | \
             [Length](https://example.com/articles/page.html?sort=length) | \
             [Town](https://example.com/articles/page.html?sort=town) |\n| --- | --- | --- |",
            "| [Wharfe](https://example.com/rivers/wharfe) | 105 km | \
             [Cawood](https://example.com/towns/cawood) |",
            "- Becks that join the Wharfe:\n  - [Washburn](https://example.com/becks/washburn)",
            "  - [Bridges of the Aire](https://example.com/rivers/aire/bridges)",
        ],
    );
    // The page's navigation is still a link list, and still goes.
    assert!(!text.contains("About"), "{text}");
}

// Issue #12: MathML was dropped, leaving gaps in sentences.
#[test]
fn mathml_is_read_inline() {
    let (text, md) = both("math.html");
    assert_contains(
        &text,
        &[
            "circle of radius r into thin rings",
            "a strip of length 2πr and small width",
            "so the area is \\pi r^2 as every pupil learns",
            "with the radius squared:\n\nA=\\pi r^{2}\n\nArchimedes",
            "found that 3 + 10/71 < \\pi < 3 + 1/7 holds",
        ],
    );
    assert_contains(
        &md,
        &[
            "circle of radius r into thin rings",
            "so the area is $\\pi r^2$ as every pupil learns",
            "with the radius squared:\n\n$$A=\\pi r^{2}$$\n\nArchimedes",
            "found that $3 + 10/71 \\lt \\pi \\lt 3 + 1/7$ holds",
        ],
    );
    let html = run("math.html", Format::Html).content;
    assert_contains(&html, &["the area is <code>\\pi r^2</code> as"]);
    assert!(!html.contains("<math"), "{html}");
}

// Issue #12: image captions were dropped; they say what the image shows.
// A caption travels with its image: shown with images, left out with them
// (as the people who mark a page's main text do). Credits and slide
// counters are not captions; a quote's figcaption is its attribution.
#[test]
fn captions_come_with_their_images_without_credits_or_counters() {
    let with_images = |format| {
        let opts = ExtractOptions::new(format)
            .base_url("https://example.com/articles/page.html")
            .include_images(true);
        extract(&page("captions.html"), &opts).content
    };
    let (text, md) = (with_images(Format::Text), with_images(Format::Markdown));
    assert_contains(
        &md,
        &[
            "weather allowing.\n\n![The tower](https://example.com/img/tower.jpg)\n\n\
             The tower at dusk, seen from the landing stage on the north side of the rock.\n\n\
             The last keepers",
        ],
    );
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "The tower at dusk, seen from the landing stage on the north side of the rock.",
                "A page of the keepers' log from the winter of 1962, when the relief boat did \
                 not come for six weeks.\n\nThe log books",
                "The relief boat in 1970.",
                "The harbour wall after the storm of 1953.",
                "Puffins nest on the western cliff",
            ],
        );
        // A slideshow's captions come with its controls: it goes whole.
        for dropped in [
            "Skerry Trust",
            "2 of 5",
            "Photo:",
            "Storm over",
            "1 of 2",
            "Jo Bloggs",
            "Credit",
            "GETTY",
            "(Image",
            "1953. (",
            "cliff (",
        ] {
            assert!(!out.contains(dropped), "{dropped}: {out}");
        }
    }
    let (text, md) = both("captions.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "weather allowing.\n\nThe last keepers",
                "winter gales.\n\nThe log books",
                "the best one I ever had.",
                "Angus Ross, keeper from 1971 to 1987",
            ],
        );
        for dropped in ["The tower at dusk", "keepers' log from", "Puffins nest"] {
            assert!(!out.contains(dropped), "{dropped}: {out}");
        }
    }
}

// Issue #12: a key/value infobox (a table, or a `<dl>` of pairs) came out
// as separate lines, a one-column table and a table nested in a cell as
// paragraphs.
#[test]
fn infoboxes_and_one_column_tables_stay_tables() {
    let (text, md) = both("infobox.html");
    assert_contains(
        &md,
        &[
            "| Pennine Way |  |\n| --- | --- |\n| Length | 268 miles |\n\
             | Start | [Edale](https://example.com/edale) |\n| End | Kirk Yetholm |\n\
             | Counties | Derbyshire; West Yorkshire; Northumberland |\n\
             | Highest point | Cross Fell 893 m |",
            // No header cells, labels beside values: still two columns.
            "|  |  |\n| --- | --- |\n| Waymarked | 1965 |\n| Managed by | Natural England |",
            "| Stages |\n| --- |\n| Edale to Crowden |\n| Crowden to Standedge |\n\
             | Standedge to Hebden Bridge |",
            // A `<dl>` of short pairs is a key/value table; a glossary is not.
            "|  |  |\n| --- | --- |\n| Waymarks | Acorn |\n\
             | Surface | Stone flags, peat, [tracks](https://example.com/tracks) |",
            "**Bog**\n\nWet ground of peat",
        ],
    );
    assert_contains(
        &text,
        &[
            "Length | 268 miles\nStart | Edale\nEnd | Kirk Yetholm\n\
             Counties | Derbyshire; West Yorkshire; Northumberland\nHighest point | Cross Fell 893 m",
            "Waymarked | 1965\nManaged by | Natural England",
            "Stages\nEdale to Crowden\nCrowden to Standedge",
            "Waymarks\nAcorn\n\nSurface\nStone flags, peat, tracks",
        ],
    );
}

// Issue #12: a table of contents' nested lists lost their depth, above all
// lists written straight inside a list (`<ol><li>A</li><ol>…</ol></ol>`).
#[test]
fn nested_lists_keep_their_depth() {
    let opts = |format| {
        farsight_extract::ExtractOptions::new(format)
            .base_url("https://example.com/pennine-way")
            .selector(".toc")
    };
    let page = crate::page("infobox.html");
    let md = farsight_extract::extract(&page, &opts(Format::Markdown)).content;
    assert_eq!(
        md,
        "1. History\n   1. Opening\n   2. Erosion\n      - Paving\n2. Route\n   1. South\n      \
         1. Edale\n   2. North\n3. Access",
    );
    let text = farsight_extract::extract(&page, &opts(Format::Text)).content;
    assert_eq!(
        text,
        "- History\n  - Opening\n  - Erosion\n    - Paving\n- Route\n  - South\n    - Edale\n  \
         - North\n- Access",
    );
}

// Issue #12, forum pages: a thread that marks its posts' texts with
// schema.org microdata (`itemprop="text"` in a `Question`, `Answer`,
// `Comment` or `DiscussionForumPosting` item: Stack Exchange, XenForo)
// is read as those texts, without user cards, vote counts, comments under
// a Q&A page's posts, signatures or the sidebar's question lists.
#[test]
fn threads_are_read_as_their_posts_texts() {
    for format in [Format::Text, Format::Markdown] {
        let qa = run("qa-microdata.html", format).content;
        let order = [
            "My starter is two weeks old",
            "can I still bake with it this weekend?",
            "Your starter is hungry, not spoiled.",
            "Pour off the liquid",
            "A cooler spot helps as well",
        ];
        let at: Vec<usize> = order
            .iter()
            .map(|w| {
                qa.find(w)
                    .unwrap_or_else(|| panic!("missing {w:?} in:\n{qa}"))
            })
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "out of order:\n{qa}");
        for gone in [
            "What flour do you feed it with",
            "That worked, thank you",
            "Add a comment",
            "reputation",
            "gold badges",
            "Accepted",
            "Starter smells of cheese",
            "How often should I feed a starter?",
            "Post Your Answer",
        ] {
            assert!(!qa.contains(gone), "{gone:?} kept in:\n{qa}");
        }

        // XenForo: the thread starter has no microdata, its class names
        // its text (`message-body`); the replies are `Comment` items.
        let thread = run("thread-microdata.html", format).content;
        assert_contains(
            &thread,
            &[
                "Which chisel widths should I buy first",
                "Three widths cover nearly everything",
                "I ordered the three widths",
            ],
        );
        for gone in [
            "Senior member",
            "Joined",
            "14,022",
            "Measure twice, post once",
            "Report",
            "Similar threads",
            "You must log in",
        ] {
            assert!(!thread.contains(gone), "{gone:?} kept in:\n{thread}");
        }
    }
}

// Issue #12, forum pages: a post's quote of an earlier post (XenForo's
// `bbCodeBlock--quote`, vBulletin's `bbcode_quote`, MyBB's `mycode_quote`)
// repeats a post the thread already shows: it goes, with its "… said:"
// and "Click to expand...".
#[test]
fn quotes_of_earlier_posts_go() {
    let (text, md) = both("thread-microdata.html");
    for out in [text, md] {
        assert_eq!(
            out.matches("Three widths cover nearly everything").count(),
            1,
            "{out}"
        );
        for gone in ["birch said:", "Click to expand"] {
            assert!(!out.contains(gone), "{gone:?} kept in:\n{out}");
        }
        assert!(out.contains("Thank you, I ordered"), "{out}");
    }
}

// Issue #12, forum pages: vBulletin 3 and 4 write no microdata but number
// each post's text `id="post_message_N"`: those are the thread, without
// the poster's join date and post count, signatures, "Reply With Quote"
// or the similar threads.
#[test]
fn vbulletin_posts_are_read_by_their_ids() {
    let (text, md) = both("thread-vbulletin.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "Should I drop the main jet size",
                "Both, in that order.",
                "Two sizes smaller on the main jet did it",
            ],
        );
        for gone in [
            "Join Date",
            "Posts: 6,210",
            "Two wheels, four strokes",
            "Reply With Quote",
            "Similar Threads",
            "viewing our boards as a guest",
        ] {
            assert!(!out.contains(gone), "{gone:?} kept in:\n{out}");
        }
    }
}

// Issue #12, service pages: Yoast SEO and Rank Math say `og:type` article
// of every WordPress page. A page (body class `page-id-N`, a JSON-LD
// `WebPage` without an `Article`) is read as a page: its sections and
// its heading stay, as on any page that is not an article.
#[test]
fn a_wordpress_page_is_read_as_a_page() {
    let (text, md) = both("wordpress-page.html");
    for out in [text, md] {
        assert!(out.contains("Roof Repair Services"), "{out}");
        assert_contains(
            &out,
            &[
                "Leaks, missing tiles",
                "Slipped slates replaced.",
                "How a repair goes",
                "Only to let us in at the start.",
            ],
        );
        assert!(!out.contains("Privacy policy"), "{out}");
    }
}

// Issue #12, service pages: an FAQ's answers collapsed in WAI-ARIA
// disclosure widgets (a toggle with `aria-expanded` naming its panel in
// `aria-controls`; the panel `hidden` or `display:none`) are one click
// away, like a tab panel: content. What no toggle opens stays hidden.
#[test]
fn collapsed_disclosure_panels_are_content() {
    let (text, md) = both("accordion-panels.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "How many dogs go on a group walk?",
                "Never more than four, matched by size",
                "We walk in any weather",
                "until six in the evening",
            ],
        );
        assert!(!out.contains("Subscribe to our newsletter"), "{out}");
    }
}

// Issue #12, forum pages: XenForo 1 marks each post's text
// `messageText` (no microdata): those are the thread, without the poster's
// message count and trophy points or "Report".
#[test]
fn xenforo_1_posts_are_read_by_their_class() {
    let (text, md) = both("thread-xenforo1.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "My tomatoes in pots wilt by noon",
                "Never garden soil: it sets like brick",
            ],
        );
        for gone in [
            "Messages:",
            "Trophy Points",
            "Well-Known Member",
            "Report",
            "Share This Page",
        ] {
            assert!(!out.contains(gone), "{gone:?} kept in:\n{out}");
        }
    }
}

// Issue #12: a shop category's grid of product cards, whose every part
// (picture, name, rating, price) is a link to the product, was dropped
// whole as a link list (Amazon's best sellers, eBay's `bn_` pages; here
// WooCommerce's standard shop loop).
#[test]
fn a_grid_of_product_cards_is_the_content() {
    let (text, md) = both("product-grid.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Enamel stovetop kettle, 2 litres, cream",
                "$39.99",
                "Rated 4.8 out of 5",
                "Cordless travel kettle, folding silicone",
                "$29.90",
                "Gooseneck spouts pour slowly and evenly",
            ],
        );
        // The site's menus are still link lists, and still go.
        assert!(!out.contains("Garden"), "{out}");
        assert!(!out.contains("Returns"), "{out}");
    }
}

// Issue #12: Yoast SEO says `og:type` article on every WordPress page,
// WooCommerce's products included, and a product read as an article is
// cleaned as one (its reviews stay, its name is not put back on top; on a
// busier page only its description block is chosen). The page's JSON-LD
// `Product` says what it is.
#[test]
fn a_product_that_og_type_calls_an_article_is_read_as_a_product() {
    let (text, md) = both("product-og-article.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Walnut serving board\n",
                "48.00",
                "Cut from one plank of English walnut",
                "no two are quite alike",
                "catches juices",
                "1.2 kg",
            ],
        );
        assert!(!out.contains("About"), "{out}");
        assert!(!out.contains("wedding present"), "{out}");
    }
}

// Issue #12: Yoast SEO says `og:type` article on every WordPress page; its
// JSON-LD graph names a post an `Article` and a page only a `WebPage`, and
// a post has an `article:published_time`. A page read as an article is
// cleaned as one: it loses its name on top, on a busier page all but one
// of its sections.
#[test]
fn a_page_that_og_type_calls_an_article_is_read_as_a_page() {
    let opts = ExtractOptions::new(Format::Text).base_url("https://example.com/garden-design/");
    let html = page("page-og-article.html");
    let out = extract(&html, &opts).content;
    assert!(out.starts_with("Garden design services\n"), "{out}");
    assert_contains(&out, &["Hard landscaping", "Do you work outside London?"]);
    // The same markup with a publishing time is a post: an article.
    let post = html.replace(
        "<meta property=\"article:modified_time\"",
        "<meta property=\"article:published_time\" content=\"2024-05-01T09:00:00+00:00\">\n<meta property=\"article:modified_time\"",
    );
    let out = extract(&post, &opts).content;
    assert!(!out.starts_with("Garden design services"), "{out}");
}

// Issue #12, service pages: an accordion that animates its panels open in
// CSS keeps each collapsed panel at zero height and `visibility:hidden`
// until its header is clicked (no ARIA to name it): one click away, like a
// tab panel, so content (a course's modules, an FAQ's answers). A
// zero-sized beacon and a hidden basket stay hidden.
#[test]
fn panels_collapsed_to_zero_height_are_content() {
    let (text, md) = both("collapsed-height-panels.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "Measuring a plot by triangulation",
                "writing a schedule a nursery can fill",
                "Tuesday and Thursday evenings",
            ],
        );
        assert!(!out.contains("Tracking beacon"), "{out}");
        assert!(!out.contains("basket is empty"), "{out}");
    }
}

// Issue #12, service pages: Tailwind CSS writes CSS values and selectors
// into class names (`pt-[calc(var(--banner-min-height))]`,
// `has-[>[data-slot=banner]]:pt-0`). Their words say how a section is laid
// out, not what it is: read as words, `banner` made every section of a
// landing page furniture and the answer was empty. A real banner, named so
// by its own class, still goes.
#[test]
fn tailwind_arbitrary_values_do_not_name_furniture() {
    let (text, md) = both("tailwind-arbitrary-values.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "Quayside builds every push to your repository",
                "Each branch gets its own address",
                "with a monthly cap they set themselves",
            ],
        );
        assert!(!out.contains("Sign up for our newsletter"), "{out}");
    }
}

// Issue #12: shops show other products under a product's description in
// rows with a heading every platform words alike ("Frequently bought
// together", "Customers also viewed"), often in hashed classes that name
// nothing. On a product page (JSON-LD `Product`) the row goes from its
// heading to the end of the section the heading opens; the product's own
// text and specifications stay.
#[test]
fn a_products_bought_together_rows_go() {
    // Many shops do not say they sell a product (`og:type` website, no
    // JSON-LD): the rows go from any page that is not an article or a thread.
    let (text, md) = both("product-bought-together.html");
    let (site_text, site_md) = both("product-bought-together-website.html");
    for out in [&text, &md, &site_text, &site_md] {
        assert_contains(
            out,
            &[
                "Enamel camping kettle",
                "folding handle",
                "does not take on the taste of smoke",
                "Specifications",
                "Weight: 540 g",
            ],
        );
        for gone in [
            "Frequently bought together",
            "Enamel mug",
            "Folding wood stove",
            "Customers also viewed",
            "percolator",
            "Recently viewed",
            "More like this",
            "Storm lantern",
        ] {
            assert!(!out.contains(gone), "{gone}: {out}");
        }
    }
}

#[test]
fn a_products_responsive_copies_are_read_once() {
    // Shop themes print title, price and description once per screen size
    // and let CSS show one copy: the content says each once. A table's
    // values and a line of code said twice are what they say.
    let (text, md) = both("product-responsive-copies.html");
    for out in [&text, &md] {
        for once in [
            "Wool field blanket",
            "€89.00",
            "felted after weaving",
            "blanket stitch in natural linen",
        ] {
            assert_eq!(out.matches(once).count(), 1, "{once}: {out}");
        }
        assert_contains(out, &["Machine washable", "Dry cleanable", "150 × 200 cm"]);
        assert_eq!(out.matches("No").count(), 2, "{out}");
        assert_eq!(out.matches("brush --soft").count(), 2, "{out}");
    }
}

#[test]
fn utility_classes_that_hide_for_everyone_hide() {
    // Bootstrap/Foundation's `hide` (BigCommerce's raw custom-field list,
    // larger than the page), Bootstrap's `d-none`: hidden as an inline
    // `display:none` is. Shown again from a breakpoint up (`hidden
    // md:block`, `hide show@medium`) or read aloud
    // (`visually-hidden`): they stay.
    let (text, md) = both("product-hidden-classes.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Heavy cotton tee",
                "double-stitched hems",
                "220 gsm organic cotton",
                "Sizing runs large",
                "Wash cold",
            ],
        );
        for gone in [
            "swatch_thumb",
            "cdn.example.com",
            "TEE-220",
            "Sale ends",
            "bag is empty",
        ] {
            assert!(!out.contains(gone), "{gone}: {out}");
        }
    }
}

#[test]
fn attributes_without_a_space_between_them_keep_the_page_whole() {
    // `data-product-layout="simple"data-gallery=...` (Squarespace's product
    // pages): browsers read two attributes. The pre-parse pass that drops
    // `data-*` attributes once glued the tag's name to the next one, and
    // the product became one unknown element whose responsive copies of
    // the description were both read.
    let (text, md) = both("product-glued-attributes.html");
    for out in [&text, &md] {
        assert_contains(out, &["Speckled stoneware mug", "$42.00"]);
        for once in ["matte speckled glaze", "safe in the dishwasher"] {
            assert_eq!(out.matches(once).count(), 1, "{once}: {out}");
        }
    }
}

#[test]
fn the_page_behind_an_open_dialog_is_read() {
    // WAI-ARIA's modal dialog pattern hides the rest of the page from
    // screen readers while a dialog is open: a page served in that state
    // (eBay's item pages) has `<main aria-hidden="true">`. It is the page:
    // it waits as inline `display:none` does and, holding most of the text,
    // stays. An `aria-hidden` icon inside still goes.
    let (text, md) = both("product-behind-modal.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &["EUR 355.58", "release bearing", "five-speed gearbox"],
        );
        assert!(!out.contains('★'), "{out}");
    }
}

// Issue #12, listings: WordPress SEO plugins say `og:type` article on
// every page, a category's archive too; WordPress's `body_class()` names
// every archive (category, tag, taxonomy, author, date, a WooCommerce shop
// category) `archive`. Read as an article, an index of posts keeps
// the entries' excerpts without their titles; read as the listing it is,
// every entry whole.
#[test]
fn a_wordpress_archive_that_og_type_calls_an_article_is_read_as_a_listing() {
    let (text, md) = both("wordpress-archive.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Slow Cooker Beef Stew",
                "Chunks of chuck",
                "Slow Cooker Chicken Curry",
                "Red Lentil Soup",
                "Pulled Pork",
                "the skin on top is the best part",
            ],
        );
        assert!(!out.contains("Privacy policy"), "{out}");
    }
    // The same markup as a post (`single`) is an article, whose entries'
    // titles read as links to elsewhere.
    let opts =
        ExtractOptions::new(Format::Text).base_url("https://example.com/category/slow-cooker/");
    let post = page("wordpress-archive.html").replace("archive category ", "single single-post ");
    let out = extract(&post, &opts).content;
    assert!(!out.contains("Slow Cooker Beef Stew"), "{out}");
}

// Issue #12, listings: an index that its JSON-LD calls an `Article` (a
// MediaWiki "List of" page, a news site's topic page) gives a scoring
// engine a few words or a block of links, which leave a few words once
// their link lists go: its main region says more.
#[test]
fn an_article_of_a_few_words_or_links_takes_its_region() {
    let (text, md) = both("list-of-links-article.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "List of market towns",
                "towns granted the right to hold a regular market",
            ],
        );
        assert!(!out.contains("Privacy policy"), "{out}");
    }
}

// Issue #12: a data table (column titles, and names that are links) is
// content, never a link list; its links are content for the blocks around
// it too. A table in a scrolling wrapper (`<div class="table-scroll">`, as
// site builders and themes write to make wide tables scroll on phones)
// went with its wrapper, which held nothing but the table's links.
#[test]
fn a_data_table_keeps_the_block_around_it() {
    let (text, md) = both("data-table-in-section.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "The north coast had eleven manned lighthouses",
                "Margaret Halloran",
                "Dunagree Point Light",
                "never saw the mainland",
            ],
        );
        assert!(!out.contains("Coast Lights Trust"), "{out}");
    }
}

// Issue #12, service pages: Readability's cleaning, made for news stories,
// reads a page builder's sections as widgets (Elementor's
// `elementor-widget` icon boxes) and drops them. When its drops hold most
// of a block's text, only those that end the block (related stories) or
// that our own furniture rules name go: the services between the
// introduction and the closing line stay.
#[test]
fn builder_widgets_that_readability_drops_stay() {
    let (text, md) = both("builder-widgets-article.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "Search campaigns",
                "Patient newsletters",
                "A gentle request after each visit",
                "Print in the waiting room",
                "Book a first call.",
            ],
        );
        assert!(!out.contains("Brightwell Marketing"), "{out}");
    }
}

// Issue #12, listings: a shop category's description (WooCommerce
// `term-description`, Magento `category-view`, Shopify
// `collection-description`) is the page's longest prose and the scoring
// engine picks it; the product grid that follows it in the same container
// is the listing and comes with it.
#[test]
fn a_category_description_keeps_the_grid_after_it() {
    let (text, md) = both("description-then-grid.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "Our whetstones are chosen by people who sharpen every day",
                "Oil stones",
                "$19.95 - $129.95",
                "Ceramic stones from one thousand to twelve thousand grit.",
                "Angle guides",
            ],
        );
        assert!(!out.contains("Returns"), "{out}");
        assert!(!out.contains("Strops"), "{out}");
    }
}

// Issue #12: a service page marked as an article (`og:type`) whose
// longest prose sits in one accordion panel (WAI-ARIA's `role="region"`
// labelled by its toggle, as Elementor marks it): Readability picked that
// panel alone, a small share of the page.
#[test]
fn one_accordion_panel_of_an_article_gives_the_page() {
    let (text, md) = both("service-accordion.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Two or more people who start a business together",
                "Buying a business",
                "Annual reports",
                "Filing forms is quick",
                "a flat fee of nine hundred dollars",
                "the lawyer who will handle your formation",
            ],
        );
        assert!(!out.contains("All rights reserved"), "{out}");
    }
}

// Issue #12, service pages: a WordPress page (body class `page-id-N`)
// whose theme types the body with schema.org microdata (`itemtype`
// `WebPage`, as Astra, GeneratePress and Genesis write it) instead of a
// JSON-LD graph, and whose SEO plugin says `og:type` article anyway: a
// page, whose sections are all content, not an article whose longest
// prose alone is.
#[test]
fn a_wordpress_page_typed_web_page_in_microdata_is_read_as_a_page() {
    let (text, md) = both("page-microdata-og-article.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Safe, warm and within warranty, every year.",
                "Our engineer tests the flue gases",
                "Oil boilers: one hundred and twenty pounds",
                "Exeter and twenty-five miles around it.",
            ],
        );
        assert!(!out.contains("Example Heating"), "{out}");
    }
    // An article's headline is its metadata's title, not its text; a
    // page's heading opens its content.
    assert!(text.starts_with("Boiler servicing\n"), "{text}");
    assert!(md.starts_with("# Boiler servicing\n"), "{md}");
}

// Issue #12, service pages: Google Tag Manager's `<noscript>` frame
// written self-closing (`<iframe ... />`, which HTML does not close). A
// browser reads a noscript as text up to `</noscript>`; read as markup,
// the open frame's raw text took the rest of the page along.
#[test]
fn a_frame_left_open_in_a_noscript_ends_with_it() {
    let (text, md) = both("noscript-open-frame.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Push your code and we build it",
                "Three steps",
                "Link the repository your team already uses.",
                "Every push deploys",
                "We moved four services in an afternoon",
            ],
        );
        assert!(!out.contains("Example Cloud"), "{out}");
        assert!(!out.contains("googletagmanager"), "{out}");
    }
}

// Issue #12, service pages: Adobe Experience Manager builds marketing
// pages of components named by type, `cmp-teaser`, `cmp-promo`,
// `cmp-banner`, in grid columns (`teaser aem-GridColumn`), with generated
// ids (`teaser-<hash>`).
// Read as words, those types made the page's sections promotions and
// teasers; the navigation is still furniture.
#[test]
fn aem_content_components_are_content() {
    let (text, md) = both("aem-components.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "We help teams move to the cloud",
                "Start with an assessment",
                "Two weeks, a written report",
                "Identity and access",
                "Alerts your team can act on",
                "Case study: a regional bank",
                "How a bank of four hundred branches",
                "A first call of half an hour",
            ],
        );
        assert!(!out.contains("Services"), "{out}");
        assert!(!out.contains("Example Advisory"), "{out}");
    }
}

// Issue #12, listings: an A–Z index whose letter blocks differ only in
// their last class word (`letter-group A`, `letter-group B`) is a row of
// alike entries, each a letter and a run of links; the run of links is
// the listing, not a "Don't miss" line to drop.
#[test]
fn letter_blocks_of_an_a_to_z_index_are_a_row() {
    let (text, md) = both("az-index-letter-groups.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Browse the catalogues",
                "Aerators",
                "Bulb planters",
                "Compost bins",
                "Daisy grubbers",
                "Hose reels",
                "Pressure sprayers",
            ],
        );
        assert!(!out.contains("Terms of use"), "{out}");
    }
}

// Issue #12, collections: a shop theme's card text under each picture sits
// in a box whose class says caption (WooCommerce themes'
// `product-caption`) and holds the product's heading, excerpt and price.
// Off articles a caption beside an image went as a card's overlay: the
// grid came out empty. No caption holds a heading.
#[test]
fn a_caption_box_holding_a_heading_is_a_cards_text() {
    let (text, md) = both("caption-cards.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "Folding kettle",
                "A kettle of soft silicone that folds flat",
                "$24.00",
                "Cutlery roll",
                "burns the sticks you pick up around camp",
            ],
        );
        assert!(!out.contains("All rights reserved"), "{out}");
    }
}

// Issue #12, shops: WooCommerce writes a sale price as the struck and the
// new price hidden from screen readers (`<del aria-hidden="true">`,
// `<ins aria-hidden="true">`), each followed by its spoken twin in
// `screen-reader-text`. The visible prices go as hidden text; the twins
// went as screen-reader text: the sale price was lost.
#[test]
fn a_sale_price_keeps_its_spoken_twin() {
    let (text, md) = both("caption-cards.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &["Original price was: $45.00.", "Current price is: $31.50."],
        );
    }
}

// Issue #12, products: a script-built product page whose description is
// only in its schema.org data (JSON-LD `Product`/`ProductGroup`
// `description`, as Shopify, WooCommerce and headless storefronts write
// it); the markup shows a name, a price and a button that opens an empty
// drawer. The description comes first, the markup's content after it.
#[test]
fn a_product_description_only_in_json_ld_is_kept() {
    let (text, md) = both("product-description-in-jsonld.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Harbour Linen Apron",
                "Cut from stonewashed linen woven in a small mill",
                "Two deep front pockets hold a notebook",
                "€48.00",
            ],
        );
        // A variant's own one-line description is not the product's.
        assert!(!out.contains("in clay."), "{out}");
    }
}

// Issue #12, products: a customer review is often a product page's
// longest prose and the scoring engine picks it; on a page that says it
// sells a product, picked blocks inside a review widget (class words
// `review`, `rating`, Yotpo's, Judge.me's) are not its content, and the
// region without its furniture (reviews included) is.
#[test]
fn a_picked_customer_review_gives_the_product_region() {
    let (text, md) = both("product-review-picked.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Larkspur Six-String Guitar",
                "€629",
                "Neck: roasted maple",
                "Pickups: three single coils",
            ],
        );
        assert!(!out.contains("worth the wait"), "{out}");
    }
}

// Issue #12, products: eBay's and other marketplaces' wording of the
// recommendation row, "People who viewed this item also viewed" (Amazon
// says "Customers who viewed this item also viewed"): the row goes.
#[test]
fn people_who_viewed_this_item_also_viewed_goes() {
    let (text, md) = both("product-people-also-viewed.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Wool Field Blanket, Oat",
                "GBP 84.00",
                "Woven from the fleece of hill sheep",
                "blanket-stitched by hand",
            ],
        );
        assert!(!out.contains("Merino Throw"), "{out}");
        assert!(!out.contains("also viewed"), "{out}");
    }
}

// Issue #12, services: a card that is one link around its heading and its
// description (the whole-card link of many design systems' card
// components: AEM's promo, Bootstrap's stretched card) is not a menu
// entry. Link density read every card's prose as link text and a row too
// short for a listing's cards (`cards.rs`) went as a link list; off
// articles (whose cards are teasers) only the heading counts as link text.
#[test]
fn whole_card_links_keep_their_prose() {
    let (text, md) = both("whole-card-links.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Fleet planning",
                "which of them to replace first",
                "report on them once the money arrives",
            ],
        );
    }
}

// Issue #12, listings: a Drupal taxonomy term page (body class
// `path-taxonomy`) lists its nodes in the teaser view mode
// (`node--view-mode-teaser`); Metatag says `og:type` article of it all the
// same. The entries are the content.
#[test]
fn drupal_taxonomy_teasers_stay() {
    let (text, md) = both("drupal-taxonomy-teasers.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Wheel Throwing for Beginners",
                "why a glaze runs, crawls or crazes",
                "Hand Building with Slabs",
            ],
        );
    }
}

// Issue #12, collections: a shop card says its name and price twice in a
// row (Shopify's Dawn theme: the heading inside the media box for cards
// without an image and again below it, an image link named after the
// product, a regular and a sale price of which CSS shows one). Off
// articles, products and threads, a short block right after the same
// text goes; a label each card repeats ("Whole bean, 340 g") stays.
#[test]
fn card_name_and_price_said_twice_in_a_row_are_said_once() {
    let (text, md) = both("card-name-said-twice.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Small batches roasted on the quay",
                "Harbour Fog Dark Roast",
                "$18.50",
                "Driftwood Medium Roast",
                "$16.10",
            ],
        );
        for once in [
            "Harbour Fog Dark Roast",
            "$18.50",
            "Quayside Espresso",
            "$19.40",
        ] {
            assert_eq!(out.matches(once).count(), 1, "{once:?} in:\n{out}");
        }
        assert_eq!(out.matches("Whole bean, 340 g").count(), 6, "{out}");
    }
}

// Issue #12, collections: each card of a shop's grid ends with an action
// link styled as a button (BigCommerce's `card-figcaption-button`
// "Choose options", Shopify themes' `quick-add-view-btn` "View details",
// "Quick view"). Off articles, a link of a few words whose class says
// `btn` or `button`, inside one card of a row, goes; a button link in the
// page's own prose stays.
#[test]
fn card_action_links_go() {
    let (text, md) = both("card-action-links.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "tested on the coast road",
                "Gull Wing Dash Camera",
                "£129.00",
                "Slipway Hardwire Cable",
                "Ask us",
            ],
        );
        for gone in ["Choose options", "Out of stock", "Quick view"] {
            assert!(!out.contains(gone), "{gone:?} in:\n{out}");
        }
    }
}

// Issue #12, collections: Discourse's `/t/` is followed by the topic's
// number (`/t/slug/123`); a shop's category at `/t/teapots` is not a
// thread, and read as one it lost the lines its cards repeat.
#[test]
fn a_shop_category_at_t_is_not_a_thread() {
    let html = page("shop-category-at-t.html");
    let at = |url: &str| extract(&html, &ExtractOptions::new(Format::Text).base_url(url)).content;
    let category = at("https://shop.example/t/teapots");
    assert_contains(
        &category,
        &[
            "Enamel stovetop kettle, 2 litres, cream",
            "$39.99",
            "Ships within two working days",
        ],
    );
    assert_eq!(category, at("https://shop.example/c/teapots"));
    // A Discourse topic's address is still a thread's.
    assert_ne!(category, at("https://forum.example/t/teapots/123"));
}

// Issue #12, collections: `aria-hidden="true"` takes text out of the
// accessibility tree, not off the screen. A link named by its
// `aria-label` hides its visible stars and count so that they are not
// read twice (Amazon's ratings), and a card's second link to the same
// page, out of the tab order too (`tabindex="-1"`), is a duplicate for
// screen readers only (a summary under the card's title): both are shown
// and are content.
#[test]
fn text_hidden_from_screen_readers_beside_its_name_is_shown() {
    let (text, md) = both("aria-hidden-shown.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Linen apron, slate blue",
                "two deep pockets and a cross-back strap",
                "4.7 out of 5 stars",
                "212",
                "Sized for cooks aged four to eight",
                "318",
            ],
        );
        assert!(!out.contains("Bedroom"), "{out}");
    }
}

// Issue #12, collections: Marko's out-of-order rendering (eBay's browse
// pages) leaves a placeholder (`id="af{R}ph{N}"`) where a block belongs
// and sends the block at the end of the body, `display:none` until a
// script moves it (`<div id="af{R}{N}">`): the grid is put in its place.
#[test]
fn marko_reordered_blocks_take_their_placeholders() {
    let (text, md) = both("marko-reordered.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Desk Accessories",
                "Brass desk lamp with green shade",
                "$64.00",
                "Leather blotter, tan",
                "12 watching",
            ],
        );
        assert!(!out.contains("Fashion"), "{out}");
        assert!(!out.contains("Returns"), "{out}");
    }
}

// Issue #12, listings: Elementor's Call to Action widget (`elementor-cta`,
// `elementor-cta__title`, `elementor-cta__description`) is a card that
// page-builder sites fill with their content; the ad table's `cta` read
// every one of its parts as an advertisement.
#[test]
fn elementor_call_to_action_cards_stay() {
    let (text, md) = both("elementor-cta-cards.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Heron Loop",
                "Warden: Petra Quill",
                "Old Mill Ridge",
                "Length: 12 miles",
            ],
        );
    }
}

// Issue #12, listings: a WordPress archive prints each post as an
// `<article>` whose title is its only text (a thumbnail and an
// `h2.entry-title` link) and whose first class word is the post's number
// (`post_class()`: `post-4101 post type-post ...`). Such entries are a
// row of cards, not a run of links.
#[test]
fn wordpress_archive_title_entries_stay() {
    let (text, md) = both("wordpress-archive-title-entries.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Roasted Parsnip and Apple Soup",
                "Green Lentil Broth with Lemon",
                "Tomato Fennel Soup in Twenty Minutes",
            ],
        );
    }
}

// Issue #12: an index lists its entries under one heading per letter or
// group ("A", list, "B", list: MediaWiki's `div-col` lists between
// `mw-heading` blocks, a glossary's letters). Each list is a block of
// links, but the lists are a row of alike blocks with headings between
// them, not a "Don't miss" run of links inside prose.
#[test]
fn index_lists_under_headings_stay() {
    let (text, md) = both("index-lists-under-headings.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Alpine Butterfly Loop",
                "Buntline Hitch",
                "Constrictor Knot",
                "Dropper Loop",
            ],
        );
    }
}

// Issue #12, listings: a WordPress archive prints its category's
// description (`the_archive_description()`, the Genesis framework's
// `archive-description`) above the region of its posts and outside
// `<main>`; the posts are titles alone. Readability picks the description;
// the archive is the description and the region of its posts.
#[test]
fn archive_description_and_its_posts() {
    let (text, md) = both("genesis-archive-description.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "on the table in thirty minutes or less",
                "Sheet Pan Gnocchi with Peppers",
                "Black Bean Quesadillas",
            ],
        );
    }
}

// Issue #12, articles: the sections that an article's table of contents
// jumps to carry its word in their ids (The Motley Fool's
// `toc_how-they-work`); read as tables of contents, they went as
// furniture with most of the article. On an article, an element named
// `toc` is a table of contents only when it is mostly links.
#[test]
fn sections_a_table_of_contents_jumps_to_stay() {
    let (text, md) = both("article-toc-sections.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "above chart datum",
                "Spring tides follow the full and new moons",
                "launching an hour or two after low water",
            ],
        );
    }
}

// Issue #12, articles: a "best of" roundup that describes its picks in
// JSON-LD `Product` nodes beside its `Article` names each pick's box after
// its review (`brightwell-k2-review`): on such an article the boxes are
// the picks, not a shop's customer-review widget.
#[test]
fn a_review_articles_product_boxes_stay() {
    let (text, md) = both("review-article-product-boxes.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "just under three minutes",
                "thin spout lays down a steady stream",
                "We tested nine other kettles",
            ],
        );
    }
}

// Issue #12, articles: an accordion's panes are one click away (a buying
// guide's methodology, its FAQ). Readability's cleaning drops them as
// widgets (Elementor's `elementor-widget-accordion`, a Kadence accordion
// whose panes hold a list), and the word `header` in an accordion's class
// names its panes' headers (Kadence's `kt-pane-header-alignment-left` on
// the whole set, Bootstrap's `accordion-header`), not a page header.
#[test]
fn an_articles_accordion_panes_stay() {
    let (text, md) = both("article-accordion-panes.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "a night soaking in a tray of water",
                "how cleanly a page tore out",
                "gel ink smeared",
                "the waterproof papers take pencil",
            ],
        );
    }
}

// Issue #12: a Framer site renders one copy of each component per
// breakpoint (`ssr-variant`), each hidden at the other breakpoints by a
// class `hidden-<breakpoint id>` that only its stylesheet explains. Read
// all at once, the article came out two or three times; it is read once,
// at one breakpoint.
#[test]
fn framer_breakpoint_variants_are_read_once() {
    let (text, md) = both("framer-breakpoint-variants.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "peeled off when you move",
                "safety films hold shattered glass together",
                "order a little more film",
            ],
        );
        assert_eq!(out.matches("peeled off when you move").count(), 1, "{out}");
        assert_eq!(out.matches("order a little more film").count(), 1, "{out}");
    }
}

// Issue #12, articles: Readability removes, before scoring, every element
// whose class says `sidebar` without a word like `content` or `main`: a
// layout wrapper named for the sidebar beside it
// (`full-width-template-with-sidebar`, `with-sidebar`, `has-sidebar`)
// went with the whole article, and an advertiser disclosure outside it
// became the content.
#[test]
fn a_wrapper_named_for_its_sidebar_keeps_the_article() {
    let (text, md) = both("article-sidebar-layout-wrapper.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "carries bicycles free of charge",
                "faces the sunset for most of the way",
                "almost never turned away at the ramp",
            ],
        );
    }
}

// Issue #12, products: a shop's product page without `<main>` keeps its
// description in sections apart from the summary Readability picks
// (WooCommerce's `summary entry-summary` beside a theme's feature rows).
// Its body without furniture holds about eight times the summary's text,
// over the six that mark comments and archives on other pages; a product
// page has none, and up to ten times its body is the content.
#[test]
fn a_products_sections_beside_its_summary_are_kept() {
    let (text, md) = both("product-sections-beside-summary.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Tern Pour-Over Flask 350 ml",
                "carried to the desk",
                "Wide mouth that sits a paper or steel dripper",
                "Four glassblowers share one furnace",
                "replace a flask that fails in normal use",
            ],
        );
        for gone in ["Delivery", "Privacy"] {
            assert!(!out.contains(gone), "{gone:?} in:\n{out}");
        }
    }
}

// Issue #12, articles and service pages: WAI-ARIA's accordion pattern
// labels each panel (`role="region"`) by its header, `aria-labelledby`
// naming the toggle whose `aria-controls` names the panel. A toggle whose
// state lives in a script alone carries no `aria-expanded`; its collapsed
// panels (`display:none`) are one click away all the same: content. A
// panel that names no toggle back (a carousel's next slide) stays hidden.
#[test]
fn accordion_panels_labelled_by_their_toggle_are_content() {
    let (text, md) = both("article-labelled-accordion.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "loosening the soil at its bottom",
                "their fine roots never dry in the wind",
                "firm the soil around each with your heel",
                "Cut every whip back by a third",
            ],
        );
        assert!(!out.contains("premium hedging bundle"), "{out}");
    }
}

// Issue #12, collections: the furniture word `header` in a class on or
// just below an element named a card (Bootstrap's `card-header`, BEM's
// `item-card__signals__header` around `signal--header`, as eBay's browse
// pages write every item) names the card's title block, not the page's
// header: the items' titles went and only their prices stayed.
#[test]
fn a_cards_header_part_keeps_its_title() {
    let (text, md) = both("card-part-headers.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Ash-handled border spade with a treaded step",
                "Copper trowel and hand fork, barely used",
                "Bypass secateurs with a spare spring",
                "£24.00",
            ],
        );
    }
}

// Issue #12, collections: Tailwind sites write a card's badge once per
// screen size, a copy for small screens (`md:hidden`) beside one shown
// from the breakpoint up (`hidden md:block`). A desktop page shows the
// second only; both were read, and every badge came out twice.
#[test]
fn a_small_screen_twin_is_read_once() {
    let (text, md) = both("tailwind-breakpoint-twins.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Fellwalker Leather Boot",
                "Tarn Lightweight Boot",
                "Resoled",
                "£98",
            ],
        );
        assert_eq!(out.matches("Heather edition").count(), 2, "{out}");
        assert_eq!(out.matches("Resoled").count(), 1, "{out}");
    }
}

// Issue #12, listings: a heading that ends the content with nothing under
// it goes ("You may also like" whose cards were pruned), but a shop's or
// blog archive's tiles are titled by a heading alone (WooCommerce's
// `li.product-category` with its `h2.woocommerce-loop-category__title`
// inside the tile's link, a WordPress archive's title-only posts): the
// last tiles of the row went one heading at a time.
#[test]
fn the_last_title_only_cards_of_a_row_stay() {
    let (text, md) = both("woocommerce-category-tiles.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Spades and Shovels",
                "Rakes and Hoes",
                "Gloves and Knee Pads",
                "Pressure Sprayers",
            ],
        );
    }
}

// Issue #12, listings: MediaWiki's JSON-LD types every page `Article`,
// Wikipedia's lists too, whose runs of links under their letters are the
// content, and as an article the page lost them. A list's page is named
// "List of ..." or "Lists of ..." by Wikipedia's naming convention, and
// MediaWiki writes the name in the body's class (`page-List_of_knots`):
// such a page lists things.
#[test]
fn a_mediawiki_list_article_keeps_its_lists() {
    let (text, md) = both("mediawiki-list-article.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Alpine Butterfly Loop",
                "Buntline Hitch",
                "Constrictor Knot",
                "Dropper Loop",
            ],
        );
    }
}

// Issue #12, collections: CSS Modules (Next.js, Create React App, Vite)
// name a component's class `Component_localName__hash`, the local name in
// camelCase (`Products_productBadge__Prv_X`): read on `_` alone,
// `productbadge` is one word, and a shop card's badge ("New Arrival",
// "Just Reduced") came out on every card of the row.
#[test]
fn a_css_modules_card_badge_goes() {
    let (text, md) = both("css-modules-card-badges.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Tidewater 35mm f/1.8 Prime",
                "Saltmarsh 70-200mm f/4 Zoom",
                "Heron 400mm f/5.6 Telephoto",
                "Cove 16mm f/2.8 Wide",
                "shrugs off sea spray",
            ],
        );
        assert!(!out.contains("Fresh Stock"), "{out}");
        assert!(!out.contains("Just Lowered"), "{out}");
    }
}

// Issue #12, collections: a shop's filter and facet panels (`filters`,
// `facet-panel`) are furniture inside `<main>`, but sites reuse their
// collapsible markup for an FAQ below the grid (an `expandable-section
// filters` per question) or class the items a tab bar filters
// (`filter-active`): the questions and answers went. A facet panel is
// checkboxes and links; one whose text is mostly sentences is not one.
#[test]
fn an_faq_in_filter_markup_stays() {
    let (text, md) = both("filter-markup-faq.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Pebble Tabletop Wheel",
                "Which wheel should a beginner choose?",
                "learn to centre clay",
                "What should I look for in a motor?",
                "pull walls with their stronger hand",
            ],
        );
        assert!(!out.contains("Floor standing"), "{out}");
    }
}

// Issue #12, collections: responsive themes print a category's guide
// twice, in columns for large screens (Bootstrap's `d-none d-md-block`)
// and in an accordion shown on small screens only (`accordion
// d-md-none`), and a desktop page shows one: read together, every
// paragraph came twice. The small-screen copy of a paragraph said
// elsewhere goes; a small-screen block that is the only copy of its text
// stays.
#[test]
fn a_small_screen_copy_of_a_paragraph_goes() {
    let (text, md) = both("small-screen-description-copy.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Choosing a carry-on",
                "measure both before you fly",
                "keeps more room inside",
                "tap a bag's picture",
            ],
        );
        assert_eq!(
            out.matches("measure both before you fly").count(),
            1,
            "{out}"
        );
        assert_eq!(out.matches("keeps more room inside").count(), 1, "{out}");
    }
}

// Issue #12, articles: Google's `data-nosnippet` marks text a search
// snippet must not quote as the page's own. Publishers put it on the
// furniture inside an article's body (Valnet's sites: an author's bio
// under the byline, inline "Related" story cards), which stayed with the
// story.
#[test]
fn an_articles_nosnippet_furniture_goes() {
    let (text, md) = both("nosnippet-article-furniture.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "the kettle goes on",
                "Clear the surface the night before",
                "a clean desk rather than yesterday",
                "Let the lamp do the waking",
            ],
        );
        assert!(!out.contains("above a bakery"), "{out}");
        assert!(!out.contains("Five desk lamps we tested"), "{out}");
    }
}

// Issue #12, articles: the article's author as a schema.org item
// (`itemprop="author"`, a microdata `Person`): WordPress's Simple Author
// Box (`saboxplugin-wrap`) and Starbox (`abh_tab`) write the box about the
// author under the story that way, and its bio stayed with the story.
#[test]
fn an_articles_schema_author_box_goes() {
    let (text, md) = both("schema-author-box.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "hides its dust in plain sight",
                "Saturday: top to bottom",
                "soda crystals",
                "washing the cloths and mops",
            ],
        );
        assert!(!out.contains("scrubbed more ovens"), "{out}");
    }
}

// Issue #12, articles: more themes' names for the box about the author
// under a story (`author-block`, WordPress block themes'
// `post-author-block`; `author-section`; `author-card`, Webflow's
// `post-page-author-card`), whose bio stayed with the story.
#[test]
fn an_articles_author_block_goes() {
    let (text, md) = both("author-section-box.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "packs a month of arithmetic",
                "Gross pay and the hours behind it",
                "a cycle scheme or a union subscription",
                "Keep the last slip of each year",
            ],
        );
        assert!(!out.contains("chain of garden centres"), "{out}");
    }
}

// Issue #12, products: an application shell's product page (AliExpress's
// item pages: `<div id="root">` empty until its scripts run) has no text
// but its page footer, whose link columns came out as the product's
// content. A product's page whose only text is its footer's links has no
// content found.
#[test]
fn a_product_shell_with_only_its_footer_has_no_content() {
    let (text, md) = both("product-shell-footer-only.html");
    for out in [&text, &md] {
        assert!(!out.contains("Help Centre"), "{out}");
        assert!(!out.contains("other languages"), "{out}");
        assert!(!out.contains("Cables and adapters"), "{out}");
    }
}

// Issue #12, products: Shopify Dawn (and the themes built on it) leaves
// its quick-add modal's link to the product's own page in the product's
// form (`product__view-details`, "View full details"): on one product's
// page it is no part of the product.
#[test]
fn a_shopify_dawn_view_details_link_goes() {
    let (text, md) = both("shopify-dawn-view-details.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "thirty-two litre daypack",
                "sprung mesh",
                "Stowed rain cover",
            ],
        );
        assert!(!out.contains("View full details"), "{out}");
    }
}

// Issue #12, forums: Invision Community (4 and 5) writes no microdata on
// its posts but names each post's text by its role
// (`data-role="commentContent"`): those are the thread, without the
// topic's overview (followers, views, top posters, popular days), the
// authors' signatures (`data-role="memberSignature"`) or "Go to topic
// listing".
#[test]
fn invision_posts_are_read_by_their_role() {
    let (text, md) = both("thread-invision.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "Should I move it into a bigger pot now",
                "a dormant fig shrugs off root pruning",
                "the buds are swelling",
            ],
        );
        for gone in [
            "Top Posters In This Topic",
            "Popular Days",
            "Views 1.3k",
            "endless war with squirrels",
            "Go to topic listing",
        ] {
            assert!(!out.contains(gone), "{gone:?} kept in:\n{out}");
        }
    }
}

// Issue #12, forums: phpBB (prosilver and the styles built on it) ends a
// topic with its jump box (`id="jumpbox"`: "Jump to" and a drop-down of
// every forum of the board) and its "Return to" link (`jumpbox-return`):
// navigation, not the thread.
#[test]
fn the_phpbb_jump_box_goes() {
    let (text, md) = both("thread-phpbb-jumpbox.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "trips the breaker around two in the morning",
                "a damp connection leaks to earth",
                "without a single trip",
            ],
        );
        for gone in [
            "Jump to",
            "Return to",
            "Recipes, preserving, pickling",
            "The tea hut",
        ] {
            assert!(!out.contains(gone), "{gone:?} kept in:\n{out}");
        }
    }
}

// Issue #12, listings: a description list whose terms and descriptions
// alternate (`<dt>` an entry's number and links, `<dd>` its title,
// authors and subjects: arXiv's listings, a glossary) is a row of
// entries: the terms between its descriptions separate them as an
// index's headings do, and each description's run of author links is
// part of its entry, not a "Don't miss" run.
#[test]
fn a_description_lists_entries_keep_their_runs_of_links() {
    let (text, md) = both("description-list-entries.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "Limpet Grazing Halos on Wave-Swept Granite Shores",
                "Tobias Penhale",
                "Callum Abernethy",
                "Tolu Oyelaran",
            ],
        );
    }
}

// Issue #12, forums: a thread read by its posts' texts lost who wrote
// each post and when, which people marking threads keep above each post.
// The post (an `<article>`, a schema.org item or a class that names a
// post) gives both before its text: the first element whose class names
// an author (XenForo's `username`) and the first `<time>`; the author
// card's title, join date and message count still go.
#[test]
fn a_posts_author_and_date_stay_with_its_text() {
    let (text, md) = both("thread-post-attribution.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "fernhollow",
                "Mar 3, 2024",
                "saltandember",
                "Mar 9, 2024",
                "Is the seasoning failing",
                "A thin coat polymerises",
                "eggs slide about",
            ],
        );
        for gone in ["Well-known member", "Joined", "Messages", "Report"] {
            assert!(!out.contains(gone), "{gone:?} kept in:\n{out}");
        }
    }
}

// Issue #12, forums: XenForo 1 wraps a post's text alone in an
// `<article>` inside its `li.message`, which holds the author's name: the
// post is the element whose class names a post before the nearest
// `<article>`.
#[test]
fn a_xenforo_1_posts_author_stays_with_its_text() {
    let (text, md) = both("thread-xenforo1.html");
    for out in [text, md] {
        assert_contains(&out, &["turnip", "marrow", "Never garden soil"]);
    }
}

// Issue #12, service pages: Webflow's tabs component calls its list of
// tabs a menu (`w-tab-menu`), and sites name their own tab and FAQ widgets
// after it (`faq_tabs-menu`, `faq_tabs-menu-link`), the answers inside the
// list's items. Read as the site's menu, the whole FAQ went. `menu` after
// `tab` or `tabs` in a class name is a tab list; the site's menu and the
// footer's links still go.
#[test]
fn a_tab_widget_menu_is_content() {
    let (text, md) = both("tab-widget-menu.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Find a leak before it finds your ceiling",
                "How long does a sensor battery last?",
                "about three years on one coin cell",
                "Does the hub need a wired connection?",
                "keeps a day of readings",
            ],
        );
        assert!(!out.contains("Offices"), "{out}");
        assert!(!out.contains("Privacy"), "{out}");
    }
}

// Issue #12, service pages: components built on Adobe Experience
// Manager's Core Components generate ids from their type, its version and
// a hash of their path (`promo-v3-2c9e41d7`), shorter than the Core
// Components' own (`teaser-5b0e8c2a41`). Read as words, the id made each
// card of a grid of services a promotion, and the grid went.
#[test]
fn aem_versioned_promo_ids_are_content() {
    let (text, md) = both("aem-versioned-promo-ids.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Our services",
                "Treasury planning",
                "a quiet month never turns into a missed payroll",
                "Audit readiness",
                "People operations",
                "knows each of your staff by name",
            ],
        );
        assert!(!out.contains("Careers"), "{out}");
    }
}

// Issue #12, products: a page saved with a dialog open hides the rest of
// itself (`aria-hidden` on the siblings of the dialog), no engine reads a
// block, and the whole body is the content. A shop's recommendation rows
// ("People who viewed this item also viewed", "Similar items") still go
// from it, as from any chosen block.
#[test]
fn recommendation_rows_go_from_the_whole_body() {
    let (text, md) = both("product-body-similar-items.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Brass Garden Tap, Quarter Turn",
                "EUR 48.90",
                "a quarter-turn lever that a gloved hand can work",
            ],
        );
        assert!(!out.contains("also viewed"), "{out}");
        assert!(!out.contains("Copper Hose Nozzle"), "{out}");
        assert!(!out.contains("Similar Items"), "{out}");
        assert!(!out.contains("Hose Reel"), "{out}");
    }
}

// Issue #12, listings and products: FAQ scripts without WAI-ARIA hide each
// answer with inline `display:none` right after its question
// (`faq__answer` after `faq__question`, `faq-answer` after `faq-question`)
// and show it when the question is clicked: one click away, content, as
// an accordion's panel. The questions stayed and the answers went. Other
// `display:none` blocks (a newsletter pop-up) still go.
#[test]
fn a_hidden_faq_answer_after_its_question_stays() {
    let (text, md) = both("faq-answer-display-none.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Throwing on the wheel",
                "Do I need any experience before I start?",
                "the first evening begins with wedging the clay",
                "When can I take my pieces home?",
                "about three weeks after the last evening",
            ],
        );
        assert!(!out.contains("Sign up to hear"), "{out}");
    }
}

// Issue #12, articles: a listicle written as one list whose items are its
// entries (a heading, a picture and paragraphs in each `<li>`: Top Gear's
// ranked lists): Readability picked the prose of the longest entry, deep
// in one item, and the other entries were lost.
#[test]
fn a_listicle_of_list_items_keeps_every_entry() {
    let (text, md) = both("listicle-list-items.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "folds in eleven seconds",
                "Three gears are enough",
                "The lightest of the four",
                "A motor in the rear hub",
            ],
        );
    }
}

// Issue #12, forums: Invision Community 5 wraps a post's date and text in
// `div.ipsEntry__post`, a post by its class, and puts the author's name
// (`h3.ipsEntry__username`) beside it in the `ipsEntry__author-column` of
// the post's `article.ipsEntry`. People marking threads keep each post's
// author above its text: the name is read in the `<article>` around the
// post when the post itself holds none.
#[test]
fn invision_author_name_beside_the_post() {
    let (text, md) = both("thread-invision-author-column.html");
    for out in [text, md] {
        assert_contains(
            &out,
            &[
                "birchbark",
                "jstroke",
                "hanging it from the garage rafters",
                "wide webbing slings",
            ],
        );
        let name = out.find("jstroke").unwrap_or(usize::MAX);
        let post = out.find("wide webbing slings").unwrap_or(0);
        assert!(name < post, "the author's name not before the post:\n{out}");
        assert!(!out.contains("2,077 posts"), "{out}");
    }
}

// Issue #12, products: a "Featured products" row under one product (a
// page with schema.org `Product` or `og:type` product: Shopify themes'
// featured-collection section, iFixit) is other products, as "Related
// products" is: the row goes. On a category or home page the same heading
// opens the page's own grid, which stays.
#[test]
fn a_featured_products_row_goes_from_a_product_only() {
    let (text, md) = both("product-featured-products-row.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Bench Vice, Cast Iron",
                "soft jaws that hold a circuit board",
                "Jaw width: seventy millimetres",
            ],
        );
        assert!(!out.contains("Featured Products"), "{out}");
        assert!(!out.contains("Needle Nose Pliers"), "{out}");
        assert!(!out.contains("Silicone Work Mat"), "{out}");
    }
    let (text, md) = both("category-featured-products.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "Featured Products",
                "Ash Handled Trowel",
                "Border Fork, Four Tines",
                "careful shaping of a yew",
            ],
        );
    }
}

// Issue #12, articles: a guide whose entries sit in a component's own part
// named `footer` (BEM's `page-footer` element of the `page` block, not the
// site's footer). Readability drops it as a footer and keeps the lead:
// when it dropped nearly all of a root, the one dropped block holding over
// half of the root's and the content's text is the content; and a run of
// linked-heading entries holding over ten times the text before it is the
// article, not related-post teasers appended to it.
#[test]
fn guide_entries_in_a_component_footer_stay() {
    let (text, md) = both("article-guide-entries-in-page-footer.html");
    for out in [&text, &md] {
        assert_contains(
            out,
            &[
                "The inspectors have spoken",
                "Juniper Hall",
                "Chestnut Yard",
                "Elderflower",
            ],
        );
        assert!(!out.contains("All rights reserved"), "{out}");
    }
}
