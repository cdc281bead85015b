//! Source files served as text, returned as one fenced code block with the
//! language named, so that an agent (and a renderer) reads them as code.

/// The fence's language for a file, by its media type or the URL's file
/// name; `None` when it is not a known kind of source.
pub(crate) fn language(essence: &str, url: Option<&str>) -> Option<&'static str> {
    by_media_type(essence).or_else(|| url.and_then(by_file_name))
}

fn by_media_type(essence: &str) -> Option<&'static str> {
    Some(match essence {
        "text/x-python"
        | "text/x-script.python"
        | "application/x-python-code"
        | "application/x-python" => "python",
        "text/x-rust" | "text/rust" => "rust",
        "text/x-go" => "go",
        "text/x-java" | "text/x-java-source" => "java",
        "text/x-kotlin" => "kotlin",
        "text/x-c" | "text/x-csrc" | "text/x-chdr" => "c",
        "text/x-c++" | "text/x-c++src" | "text/x-c++hdr" => "cpp",
        "text/x-csharp" => "csharp",
        "text/x-ruby" | "application/x-ruby" => "ruby",
        "text/x-php" | "application/x-httpd-php" | "application/x-php" => "php",
        "text/x-swift" => "swift",
        "text/x-sh" | "text/x-shellscript" | "application/x-sh" | "application/x-shellscript" => {
            "bash"
        }
        "text/javascript"
        | "application/javascript"
        | "application/x-javascript"
        | "application/ecmascript"
        | "text/ecmascript" => "javascript",
        "application/typescript" | "text/typescript" | "text/x-typescript" => "typescript",
        "application/toml" | "text/x-toml" => "toml",
        "application/yaml" | "application/x-yaml" | "text/yaml" | "text/x-yaml" => "yaml",
        "text/css" => "css",
        "application/sql" | "text/x-sql" => "sql",
        "text/x-lua" => "lua",
        "text/x-diff" | "text/x-patch" => "diff",
        _ => return None,
    })
}

fn by_file_name(url: &str) -> Option<&'static str> {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let name = path.rsplit('/').next().unwrap_or_default();
    match name {
        "Dockerfile" | "Containerfile" => return Some("dockerfile"),
        "Makefile" | "GNUmakefile" => return Some("make"),
        "CMakeLists.txt" => return Some("cmake"),
        _ => {}
    }
    let (_, ext) = name.rsplit_once('.')?;
    Some(match ext.to_ascii_lowercase().as_str() {
        "rs" => "rust",
        "py" | "pyi" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "jsx" => "jsx",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "tsx",
        "go" => "go",
        "java" => "java",
        "kt" | "kts" => "kotlin",
        "scala" => "scala",
        "c" | "h" => "c",
        "cpp" | "cc" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "cs" => "csharp",
        "m" => "objectivec",
        "swift" => "swift",
        "rb" => "ruby",
        "php" => "php",
        "pl" | "pm" => "perl",
        "lua" => "lua",
        "r" => "r",
        "jl" => "julia",
        "dart" => "dart",
        "ex" | "exs" => "elixir",
        "erl" | "hrl" => "erlang",
        "hs" => "haskell",
        "ml" | "mli" => "ocaml",
        "clj" | "cljs" => "clojure",
        "zig" => "zig",
        "nim" => "nim",
        "sh" | "bash" => "bash",
        "zsh" => "zsh",
        "fish" => "fish",
        "ps1" => "powershell",
        "bat" | "cmd" => "batch",
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "ini" | "cfg" => "ini",
        "sql" => "sql",
        "css" => "css",
        "scss" => "scss",
        "less" => "less",
        "vue" => "vue",
        "svelte" => "svelte",
        "proto" => "protobuf",
        "graphql" | "gql" => "graphql",
        "tf" | "hcl" => "hcl",
        "nix" => "nix",
        "gradle" | "groovy" => "groovy",
        "diff" | "patch" => "diff",
        "cmake" => "cmake",
        _ => return None,
    })
}

/// `code` in one fenced block tagged `language`. The fence is longer than
/// any run of backticks in the code, so nothing inside can close it.
pub(crate) fn fenced(code: &str, language: &str) -> String {
    let fence = "`".repeat(crate::render::longest_run(code, '`').max(2) + 1);
    let code = code.strip_suffix('\n').unwrap_or(code);
    format!("{fence}{language}\n{code}\n{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_by_type_then_file_name() {
        assert_eq!(language("text/x-python", None), Some("python"));
        assert_eq!(
            language("text/plain", Some("https://e.x/src/main.rs?raw=1")),
            Some("rust")
        );
        assert_eq!(
            language("text/plain", Some("https://e.x/a/Dockerfile")),
            Some("dockerfile")
        );
        assert_eq!(
            language("application/javascript", Some("https://e.x/app")),
            Some("javascript")
        );
        assert_eq!(language("text/plain", Some("https://e.x/notes.txt")), None);
        assert_eq!(language("text/plain", Some("https://e.x/")), None);
        assert_eq!(language("text/plain", None), None);
    }

    #[test]
    fn the_fence_outlasts_backticks_inside() {
        assert_eq!(fenced("x = 1\n", "python"), "```python\nx = 1\n```");
        let code = "s = \"````\"";
        let f = fenced(code, "python");
        assert!(f.starts_with("`````python\n"), "{f}");
        assert!(f.ends_with("\n`````"), "{f}");
    }
}
