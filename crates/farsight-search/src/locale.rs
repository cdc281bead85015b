//! The country and language of a search: the one reader of the codes an agent
//! gives (`country`, ISO 3166-1 alpha-2; `language`, ISO 639-1) and the forms
//! providers want that are not the code itself.

/// `raw` as a lower-case ISO 3166-1 alpha-2 code (`"DE"` → `"de"`), or `None`
/// when it is not one. `"uk"` is taken for `"gb"`, as Google and Brave do.
pub(crate) fn country_code(raw: &str) -> Option<String> {
    let code = raw.trim().to_ascii_uppercase();
    let code = if code == "UK" { "GB".to_owned() } else { code };
    isocountry::CountryCode::for_alpha2(&code)
        .ok()
        .map(|c| c.alpha2().to_ascii_lowercase())
}

/// `raw` as a lower-case ISO 639-1 code (`"FR"` → `"fr"`), or `None` when it is
/// not one. A region suffix (`"pt-BR"`, `"en_US"`) is dropped: the providers'
/// language parameters take the language alone.
pub(crate) fn language_code(raw: &str) -> Option<String> {
    let code = raw
        .trim()
        .split(['-', '_'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    isolang::Language::from_639_1(&code).map(|_| code)
}

/// The country's name as Tavily's `country` parameter takes it: lower-case
/// English ("germany", "united states"). Tavily's list uses the short common
/// names, so the ISO names with a qualifier are given theirs here.
pub(crate) fn tavily_country(code: &str) -> Option<String> {
    let short = match code {
        "us" => "united states",
        "gb" => "united kingdom",
        "kr" => "south korea",
        "kp" => "north korea",
        "ru" => "russia",
        "cz" => "czech republic",
        "vn" => "vietnam",
        "ir" => "iran",
        "tw" => "taiwan",
        "bo" => "bolivia",
        "ve" => "venezuela",
        "tz" => "tanzania",
        "sy" => "syria",
        "md" => "moldova",
        "la" => "laos",
        "mk" => "north macedonia",
        "cd" => "democratic republic of the congo",
        "bn" => "brunei",
        _ => "",
    };
    if !short.is_empty() {
        return Some(short.to_owned());
    }
    isocountry::CountryCode::for_alpha2(&code.to_ascii_uppercase())
        .ok()
        .map(|c| c.name().to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_countries() {
        assert_eq!(country_code(" DE ").as_deref(), Some("de"));
        assert_eq!(country_code("uk").as_deref(), Some("gb"));
        assert_eq!(country_code("zz"), None);
        assert_eq!(country_code("deu"), None);
        assert_eq!(country_code(""), None);
    }

    #[test]
    fn reads_languages() {
        assert_eq!(language_code("FR").as_deref(), Some("fr"));
        assert_eq!(language_code("pt-BR").as_deref(), Some("pt"));
        assert_eq!(language_code("xx"), None);
        assert_eq!(language_code("french"), None);
    }

    #[test]
    fn names_countries_for_tavily() {
        assert_eq!(tavily_country("de").as_deref(), Some("germany"));
        assert_eq!(tavily_country("us").as_deref(), Some("united states"));
        assert_eq!(tavily_country("fr").as_deref(), Some("france"));
    }
}
