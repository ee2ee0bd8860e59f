use super::bbcode::{inline, to_markdown};
use super::{compare, merge, pages, xml};
use std::collections::BTreeMap;

const DOCTOOL: &str = r#"<?xml version="1.0" encoding="UTF-8" ?>
<class name="Arm2D" inherits="Node2D" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
	<brief_description>
	</brief_description>
	<description>
	</description>
	<methods>
		<method name="solve" qualifiers="const">
			<return type="bool" />
			<param index="1" name="b" type="float" default="1.0" />
			<param index="0" name="a" type="int" />
			<description>
			</description>
		</method>
		<method name="reset">
			<return type="void" />
			<description>
			</description>
		</method>
	</methods>
	<members>
		<member name="weight" type="float" setter="set_weight" getter="get_weight" default="1.0">
		</member>
		<member name="bone" type="Bone2D" setter="set_bone" getter="get_bone" default="null">
		</member>
	</members>
	<signals>
		<signal name="reached">
			<param index="0" name="error" type="float" />
			<description>
			</description>
		</signal>
	</signals>
	<constants>
		<constant name="UPDATE_PROCESS" value="0">
		</constant>
	</constants>
</class>"#;

const REGISTERED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<class name="Arm2D" inherits="Node2D">
<brief_description>Bends an arm toward [member target].</brief_description>
<description>Reads [Bone2D] &amp; writes [code]rotation[/code].[br][br]Second paragraph.</description>
<methods><method name="solve"><description>Solves [b]now[/b]; see [method reset].</description></method></methods>
<signals><signal name="reached"><description>Emitted at the target.</description></signal></signals>
<constants><constant name="UPDATE_PROCESS" value="0">Every frame.</constant></constants>
<members><member name="weight" type="f32" default="1.0">How much, 0 to 1.</member></members>
</class>"#;

#[test]
fn xml_reads_elements_attributes_text_and_entities() {
    let root =
        xml::parse("<?xml version=\"1.0\"?>\n<!-- c --><a x=\"1 &lt; 2\" y='z'><b/>t &amp; &#65;&#x42;<c>in</c></a>")
            .unwrap();
    assert_eq!(root.name, "a");
    assert_eq!(root.attr("x"), Some("1 < 2"));
    assert_eq!(root.attr("y"), Some("z"));
    assert_eq!(root.children.len(), 2);
    assert_eq!(root.text, "t & AB");
    assert_eq!(root.child_text("c"), "in");
    assert!(xml::parse("<a><b></a>").is_err(), "a mismatched closing tag is an error");
    assert!(xml::parse("<a x=1></a>").is_err(), "an unquoted attribute is an error");
}

#[test]
fn bbcode_becomes_markdown() {
    let ours = vec!["Arm2D".to_string(), "Leg2D".to_string()];
    let md = |s: &str| inline(s, "Arm2D", &ours);
    assert_eq!(md("[code]a[/code] [b]b[/b] [i]c[/i] [kbd]d[/kbd]"), "`a` **b** *c* `d`");
    assert_eq!(md("[member weight]"), "[`weight`](#property-weight)");
    assert_eq!(md("[method solve]"), "[`solve()`](#method-solve)");
    assert_eq!(md("[member Leg2D.reach]"), "[`Leg2D.reach`](Leg2D.md#property-reach)");
    assert_eq!(
        md("[signal reached] [constant UPDATE_PROCESS] [param bone_index]"),
        "[`reached`](#signal-reached) [`UPDATE_PROCESS`](#constant-update_process) `bone_index`"
    );
    assert_eq!(md("[Leg2D]"), "[Leg2D](Leg2D.md)");
    assert_eq!(md("[Bone2D]"), "[Bone2D](https://docs.godotengine.org/en/stable/classes/class_bone2d.html)");
    assert_eq!(
        md("[method Bone2D.get_bone_angle]"),
        "[`Bone2D.get_bone_angle()`](https://docs.godotengine.org/en/stable/classes/class_bone2d.html#class-bone2d-method-get-bone-angle)"
    );
    assert_eq!(md("[url=https://x.org]X[/url]"), "[X](https://x.org)");
    assert_eq!(md("an [unclosed bracket and a [lowercase] word"), "an [unclosed bracket and a [lowercase] word");
    let block = to_markdown(
        "Before.[br][br]After.\n[codeblock]\n\t\tvar a = 1\n\t\tif a:\n\t\t\tpass\n[/codeblock]\nEnd.",
        "Arm2D",
        &ours,
    );
    assert_eq!(block, "Before.\n\nAfter.\n\n```gdscript\nvar a = 1\nif a:\n\tpass\n```\n\nEnd.");
}

fn arm_pages() -> BTreeMap<String, String> {
    pages(&[DOCTOOL.to_string()], &[REGISTERED.to_string()]).unwrap()
}

#[test]
fn a_page_names_every_member_with_its_type_default_and_description() {
    let pages = arm_pages();
    let page = &pages["Arm2D.md"];
    for expected in [
        "# Arm2D",
        "Bends an arm toward [`target`](#property-target).",
        "Reads [Bone2D](https://docs.godotengine.org/en/stable/classes/class_bone2d.html) & writes `rotation`.\n\nSecond paragraph.",
        "| [`weight`](#property-weight) | `float` | `1.0` |",
        "| [`bone`](#property-bone) | `Bone2D` | `null` |",
        "| `bool` | [`solve`](#method-solve)`(a: int, b: float = 1.0)` |",
        "### <a id=\"method-solve\"></a>`solve(a: int, b: float = 1.0) -> bool const`\n\nSolves **now**; see [`reset()`](#method-reset).",
        "### <a id=\"method-reset\"></a>`reset() -> void`\n\n*No description.*",
        "### <a id=\"signal-reached\"></a>`reached(error: float)`\n\nEmitted at the target.",
        "`UPDATE_PROCESS = 0`: Every frame.",
        "`float`, default `1.0` (`set_weight()`, `get_weight()`)\n\nHow much, 0 to 1.",
    ] {
        assert!(page.contains(expected), "the page lacks {expected:?}:\n{page}");
    }
    // Sorted by name, whatever the dump's order: bone before weight, reset before solve.
    assert!(page.find("property-bone").unwrap() < page.find("property-weight").unwrap());
    assert!(page.find("`reset() -> void`").unwrap() < page.find("`solve(a").unwrap());
    assert!(
        pages["README.md"].contains("- [Arm2D](Arm2D.md): Bends an arm toward [`target`](Arm2D.md#property-target).")
    );
}

#[test]
fn classes_users_never_get_have_no_page() {
    let debug = DOCTOOL.replace("name=\"Arm2D\"", "name=\"Reach2DDebug\"");
    let pages = pages(&[DOCTOOL.to_string(), debug], &[]).unwrap();
    assert_eq!(pages.keys().collect::<Vec<_>>(), ["Arm2D.md", "README.md"]);
}

#[test]
fn merge_leaves_undocumented_entries_alone() {
    let mut structure = xml::parse(DOCTOOL).unwrap();
    merge::fill(&mut structure, &xml::parse("<class name=\"Arm2D\"><members></members></class>").unwrap());
    assert_eq!(structure, xml::parse(DOCTOOL).unwrap());
}

#[test]
fn a_property_added_without_regenerating_is_stale() {
    let on_disk = arm_pages();
    assert!(compare(&on_disk, &on_disk).is_empty());
    let added = DOCTOOL.replace(
        "<members>",
        "<members>\n<member name=\"reach\" type=\"float\" setter=\"set_reach\" getter=\"get_reach\" default=\"0.0\"></member>",
    );
    let now = pages(&[added], &[REGISTERED.to_string()]).unwrap();
    let problems = compare(&now, &on_disk);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("docs/reference/Arm2D.md is stale from line"), "{problems:?}");
    assert!(problems[0].contains("reach"), "{problems:?}");
    let mut extra = on_disk.clone();
    extra.insert("Gone2D.md".into(), String::new());
    assert_eq!(compare(&on_disk, &extra), ["docs/reference/Gone2D.md documents no registered class"]);
    let mut missing = on_disk.clone();
    missing.remove("Arm2D.md");
    assert_eq!(compare(&on_disk, &missing), ["docs/reference/Arm2D.md is missing"]);
}
