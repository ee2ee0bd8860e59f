extends "res://lib/test_case.gd"
## The README's quick start, verbatim: the fenced GDScript block between `<!-- quickstart:begin -->` and
## `<!-- quickstart:end -->` must equal `quickstart/quick_start.gd` (so the two cannot drift), and that script,
## attached to the root of the scene the README's editor steps build (a Skeleton2D with a Thigh and a Shin of 60 px,
## a Target), makes the leg's end reach the target within 1 px, wherever in reach the target is moved.

const SNIPPET := "res://quickstart/quick_start.gd"
const BEGIN := "<!-- quickstart:begin -->"
const END := "<!-- quickstart:end -->"


## The fenced code between the README's markers, without the fence lines.
func readme_snippet() -> String:
	var readme := FileAccess.get_file_as_string(ProjectSettings.globalize_path("res://").path_join("../README.md"))
	var begin := readme.find(BEGIN)
	var end := readme.find(END)
	if not expect(begin >= 0 and end > begin, "the README has the quick-start markers"):
		return ""
	var lines := readme.substr(begin + BEGIN.length(), end - begin - BEGIN.length()).strip_edges().split("\n")
	if not expect(lines.size() > 2 and lines[0].begins_with("```") and lines[-1] == "```", "one fenced block between the markers"):
		return ""
	return "\n".join(lines.slice(1, lines.size() - 1)) + "\n"


func test_readme_block_is_the_tested_script() -> void:
	var snippet := readme_snippet()
	var file := FileAccess.get_file_as_string(SNIPPET)
	expect(snippet != "" and snippet == file, "the README's quick-start block equals %s" % SNIPPET)


## The scene of the README's editor steps 1-3: Main (Node2D) > Skeleton2D > Thigh > Shin, and Main > Target.
func build_scene() -> Node2D:
	var main := Node2D.new()
	main.name = "Main"
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton2D"
	skeleton.position = Vector2(300, 150)
	main.add_child(skeleton)
	var thigh := Bone2D.new()
	thigh.name = "Thigh"
	thigh.rotation_degrees = 80.0
	skeleton.add_child(thigh)
	var shin := Bone2D.new()
	shin.name = "Shin"
	shin.position = Vector2(60, 0)
	shin.rotation_degrees = -30.0
	shin.set_autocalculate_length_and_angle(false)
	shin.set_length(60.0)
	thigh.add_child(shin)
	var target := Marker2D.new()
	target.name = "Target"
	target.position = Vector2(380, 230)
	main.add_child(target)
	# Step 2's *Skeleton2D > Overwrite Rest Pose*: each bone's rest is its drawn transform.
	thigh.rest = thigh.transform
	shin.rest = shin.transform
	return main


func test_the_quick_start_leg_reaches_its_target() -> void:
	var main := build_scene()
	main.set_script(load(SNIPPET))
	add_child(main)
	var shin: Bone2D = main.get_node("Skeleton2D/Thigh/Shin")
	var target: Node2D = main.get_node("Target")
	var hip: Vector2 = main.get_node("Skeleton2D/Thigh").global_position
	var worst := 0.0
	# Where the README leaves the target, then wherever a user drags it within the leg's 120 px reach.
	for at in [Vector2(380, 230), Vector2(300, 260), Vector2(230, 200), Vector2(350, 120), Vector2(300, 200)]:
		target.global_position = at
		await wait_frames(3)
		expect(hip.distance_to(at) < 119.0, "the target %s is within reach" % at)
		var off := bone_end(shin).distance_to(at)
		worst = maxf(worst, off)
		expect(off <= 1.0, "the leg's end reaches the target at %s within 1 px (off %.4f px)" % [at, off])
	expect(all_finite(bones_of(main.get_node("Skeleton2D"))), "no NaN in the bones")
	print("quick start: worst distance from the leg's end to its target over 5 targets: %.6f px" % worst)
	main.queue_free()
	await wait_frames(1)
