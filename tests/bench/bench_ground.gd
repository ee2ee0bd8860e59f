extends SceneTree
## FootGrounder2D's cost (issue 24): K characters (half mirrored with scale.x = -1), each with two TwoBoneIk2D legs,
## foot bones and a hips bone, walking over a floor of slopes and steps. In one process, taking turns in blocks:
##   grounded  FootGrounder2D.advance(): a heel and a toe ray per foot (4 rays), the hips' offset, both legs solved
##             toward the ground, feet turned;
##   one_ray   the same with `toe_ray = false` (a ray per foot, 2 rays), as before issue 31;
##   plain     the same two legs solved toward fixed targets (TwoBoneIk2D.solve() twice): the legs alone.
## Reports the median time per character per frame of each, their spread over blocks, the ratio of each block's
## pair (same process, neighbouring in time, so a busy machine slows both), and
## the heap allocations the grounded frames made (the nodes' own code and all of the extension's Rust code). Needs
## the release build with the `bench` feature (`cargo build -p reach2d --release --features bench`, placed in
## addons/reach2d/bin as `cargo xtask bench` does); `-- --quick` runs a few characters.

const Rig := preload("res://lib/rig.gd")
const Characters := preload("res://lib/characters.gd")
const Timing := preload("res://bench/timing.gd")
const DT := 1.0 / 60.0
## The tests' two-legged character (Characters.two_legged) with a shorter hips bone, a shorter straight foot and the
## soles 4 px under the ankles.
const MEASURES := {
	"hips": 10.0, "thigh": 40.0, "shin": 40.0, "poses": [[-0.5, 0.4], [0.1, 0.4]],
	"foot": 12.0, "foot_angle": 0.0, "foot_rotation": -0.2, "foot_height": 4.0,
}

var big := 400
var blocks := 15
var frames_per_block := 4


func _initialize() -> void:
	if "--quick" in OS.get_cmdline_user_args():
		big = 8
		blocks = 2
		frames_per_block = 2
	Timing.start_watchdog(self, 600.0)
	_run.call_deferred()


## Character k of a row of 40 (odd ones mirrored), its legs in manual mode: grounded by a FootGrounder2D (with the
## toe rays when `toe_ray`), or (plain) each leg reaching for a fixed target 4 px under its animated ankle.
func make_two_legged(k: int, grounded: bool, toe_ray := true) -> Dictionary:
	var at := Vector2(60 + (k % 40) * 50.0, 100 + (k / 40) * 200.0)
	var character := Characters.two_legged(root, at, -1.0 if k % 2 == 1 else 1.0, root, MEASURES)
	for i in 2:
		var leg: Node2D = character["legs"][i]
		leg.update_mode = 2
		if not grounded:
			leg.target = Rig.target(character["character"], "Target%d" % i, Rig.bone_end(character["shins"][i]) + Vector2(0, 4))
	character["grounder"] = Characters.foot_grounder(character, MEASURES) if grounded else null
	if grounded:
		character["grounder"].toe_ray = toe_ray
	return character


## A floor of slopes and steps under each row of characters.
func make_floor(rows: int) -> void:
	var body := StaticBody2D.new()
	for row in rows:
		var top := 100 + row * 200.0 + 80.0
		var points := PackedVector2Array()
		for i in 60:
			var x := i * 40.0
			points.append(Vector2(x, top + (12.0 if i % 3 == 0 else 0.0) + 6.0 * sin(i * 0.7)))
			points.append(Vector2(x + 40.0, top + (12.0 if i % 3 == 0 else 0.0) + 6.0 * sin(i * 0.7 + 0.7)))
		points.append(Vector2(2400, top + 60))
		points.append(Vector2(0, top + 60))
		var unique := PackedVector2Array()
		for p in points:
			if unique.is_empty() or not unique[-1].is_equal_approx(p):
				unique.append(p)
		points = unique
		var shape := CollisionPolygon2D.new()
		shape.polygon = points
		body.add_child(shape)
	root.add_child(body)


func _run() -> void:
	var rows := (big + 39) / 40
	make_floor(rows)
	var sets := {"grounded": [], "one_ray": [], "plain": []}
	for k in big:
		sets["grounded"].append(make_two_legged(k, true))
		sets["one_ray"].append(make_two_legged(k, true, false))
		sets["plain"].append(make_two_legged(k, false))
	for i in 3:
		await physics_frame
	var times := {"grounded": [], "one_ray": [], "plain": []}
	var frame := 0
	var allocations := {"grounded": [0, 0], "one_ray": [0, 0], "plain": [0, 0]}
	var grounded_frames := 0
	var warm := true
	for block in blocks + 1:
		for method in ["grounded", "one_ray", "plain"]:
			var set: Array = sets[method]
			var nodes_before: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
			var rust_before: int = ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations")
			var start := Time.get_ticks_usec()
			for f in frames_per_block:
				var dx := 0.5 * sin((frame + f) * 0.05)
				for c in set:
					c["character"].position.x += dx
					if method != "plain":
						c["grounder"].advance(DT)
					else:
						c["legs"][0].solve()
						c["legs"][1].solve()
			var usec := Time.get_ticks_usec() - start
			if block > 0:
				allocations[method][0] += ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - nodes_before
				allocations[method][1] += ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations") - rust_before
				if method == "grounded":
					grounded_frames += frames_per_block
				times[method].append(usec / float(frames_per_block * set.size()))
		frame += frames_per_block
	var g: float = Timing.stats(times["grounded"])["median"]
	var o: float = Timing.stats(times["one_ray"])["median"]
	var p: float = Timing.stats(times["plain"])["median"]
	print("# FootGrounder2D, %d characters (half mirrored), %d blocks of %d frames, %s" % [big, blocks, frames_per_block, Engine.get_version_info()["string"]])
	Timing.print_table_head("| per character per frame | median us | spread (min-max of blocks) us |")
	print("| grounded: FootGrounder2D.advance() (heel and toe rays: 4 rays, hips, 2 legs, 2 feet) | %.2f | %.2f-%.2f |" % [g, times["grounded"].min(), times["grounded"].max()])
	print("| one ray: the same with toe_ray off (2 rays) | %.2f | %.2f-%.2f |" % [o, times["one_ray"].min(), times["one_ray"].max()])
	print("| plain: the two legs' solve() toward targets | %.2f | %.2f-%.2f |" % [p, times["plain"].min(), times["plain"].max()])
	for pair in [["grounded", "plain"], ["one_ray", "plain"], ["grounded", "one_ray"]]:
		var ratios := []
		for i in times[pair[0]].size():
			ratios.append(times[pair[0]][i] / times[pair[1]][i])
		print("| ratio %s / %s, block by block (same process) | %.2fx | %.2f-%.2fx |" % [pair[0], pair[1], Timing.stats(ratios)["median"], ratios.min(), ratios.max()])
	for method in ["grounded", "one_ray", "plain"]:
		print("| heap allocations, %s, over %d frames x %d characters (after the first block): nodes' code / all Rust code | %d / %d | |" % [method, grounded_frames, big, allocations[method][0], allocations[method][1]])
	print("REACH2D_DONE")
	quit(0)
