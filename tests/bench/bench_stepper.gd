extends SceneTree
## LegStepper2D's cost (issue 33): K eight-legged creatures (Characters.eight_legs: TwoBoneIk2D legs, bone angles
## != 0; half mirrored with scale.x = -1) walking over a floor with bumps. In one process, taking turns in blocks:
##   stepping  the creature moved, then LegStepper2D.advance(): the walk planned, a ray (and a wall check) per
##             lifting foot, the body raised and tilted, all eight legs solved toward their feet's goals;
##   plain     the same eight legs solved toward fixed targets (TwoBoneIk2D.solve() eight times): the legs alone.
## Reports the median time per creature per frame of each, their spread over blocks, the ratio of each block's pair
## (same process, neighbouring in time, so a busy machine slows both), the lifts per frame, and the heap allocations
## the stepping frames made (the nodes' own code and all of the extension's Rust code). Needs the release build with
## the `bench` feature (`cargo xtask bench` places it); `-- --quick` runs a few creatures.

const Rig := preload("res://lib/rig.gd")
const Characters := preload("res://lib/characters.gd")
const Timing := preload("res://bench/timing.gd")
const DT := 1.0 / 60.0
const PER_ROW := 40
const SPACING := 220.0
const ROW_HEIGHT := 200.0

var big := 200
var blocks := 15
var frames_per_block := 8


func _initialize() -> void:
	if "--quick" in OS.get_cmdline_user_args():
		big = 4
		blocks = 2
		frames_per_block = 2
	Timing.start_watchdog(self, 900.0)
	_run.call_deferred()


## Creature k (odd ones mirrored), standing on its row's floor: with a LegStepper2D, or (plain) each leg reaching for
## a fixed target where its foot rests.
func make_creature(k: int, stepping: bool) -> Dictionary:
	var row := k / PER_ROW
	var at := Vector2(200.0 + (k % PER_ROW) * SPACING, 100.0 + row * ROW_HEIGHT)
	var facing := -1.0 if k % 2 == 1 else 1.0
	if stepping:
		var case := Characters.stepping_creature(root, at, facing, Characters.eight_legs())
		case["stepper"].tilt_body = true
		return case
	var creature := Node2D.new()
	creature.position = at
	creature.scale = Vector2(facing, 1.0)
	root.add_child(creature)
	var skeleton := Skeleton2D.new()
	creature.add_child(skeleton)
	var built := Rig.legged_creature(skeleton, Characters.eight_legs(), 0.3, creature)
	for i in built["legs"].size():
		var leg: Node2D = built["legs"][i]
		leg.update_mode = 2
		leg.target = Rig.target(creature, "Target%d" % i, Rig.bone_end(built["bones"][i][-1]))
	return {"creature": creature, "legs": built["legs"]}


## A floor under each row, its top Characters.STEPPER_FOOT_DROP under the creatures, with a bump every 60 px.
func make_floor(rows: int) -> void:
	var body := StaticBody2D.new()
	for row in rows:
		var top := 100.0 + row * ROW_HEIGHT + Characters.STEPPER_FOOT_DROP
		var points := PackedVector2Array()
		var width := 400.0 + PER_ROW * SPACING
		for i in int(width / 60.0):
			points.append(Vector2(i * 60.0, top))
			points.append(Vector2(i * 60.0 + 30.0, top - 6.0))
		points.append(Vector2(width, top))
		points.append(Vector2(width, top + 60.0))
		points.append(Vector2(0.0, top + 60.0))
		var shape := CollisionPolygon2D.new()
		shape.polygon = points
		body.add_child(shape)
	root.add_child(body)


func _run() -> void:
	make_floor((big + PER_ROW - 1) / PER_ROW)
	var stepping: Array[Dictionary] = []
	var plain: Array[Dictionary] = []
	for k in big:
		stepping.append(make_creature(k, true))
		plain.append(make_creature(k, false))
	for i in 3:
		await physics_frame
	var lifts := [0]
	for c in stepping:
		c["stepper"].foot_lifted.connect(func(_i: int) -> void: lifts[0] += 1)
	var times := {"stepping": [], "plain": []}
	var allocations := {"stepping": [0, 0], "plain": [0, 0]}
	var frame := 0
	var stepping_frames := 0
	var lifts_before := 0
	for block in blocks + 1:
		if block == 1:
			lifts_before = lifts[0]
		for method in ["stepping", "plain"]:
			var set: Array[Dictionary] = stepping if method == "stepping" else plain
			var nodes_before: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
			var rust_before: int = ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations")
			var start := Time.get_ticks_usec()
			for f in frames_per_block:
				# Walking at 40-140 px/s, each creature its own way.
				var dx := (1.5 + sin((frame + f) * 0.03)) * 1.0
				for c in set:
					var root_node: Node2D = c["creature"]
					root_node.position.x += dx * root_node.scale.x
					if method == "stepping":
						c["stepper"].advance(DT)
					else:
						for leg: Node2D in c["legs"]:
							leg.solve()
			var usec := Time.get_ticks_usec() - start
			if block > 0:
				allocations[method][0] += ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - nodes_before
				allocations[method][1] += ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations") - rust_before
				if method == "stepping":
					stepping_frames += frames_per_block
				times[method].append(usec / float(frames_per_block * set.size()))
		frame += frames_per_block
	var s: float = Timing.stats(times["stepping"])["median"]
	var p: float = Timing.stats(times["plain"])["median"]
	print("# LegStepper2D, %d eight-legged creatures (half mirrored), %d blocks of %d frames, %s" % [big, blocks, frames_per_block, Engine.get_version_info()["string"]])
	Timing.print_table_head("| per creature per frame | median us | spread (min-max of blocks) us |")
	print("| stepping: move, LegStepper2D.advance() (the walk, rays for lifting feet, the body, 8 legs solved) | %.2f | %.2f-%.2f |" % [s, times["stepping"].min(), times["stepping"].max()])
	print("| plain: the same 8 legs' solve() toward targets | %.2f | %.2f-%.2f |" % [p, times["plain"].min(), times["plain"].max()])
	var ratios := []
	for i in times["stepping"].size():
		ratios.append(times["stepping"][i] / times["plain"][i])
	print("| ratio stepping / plain, block by block (same process) | %.2fx | %.2f-%.2fx |" % [Timing.stats(ratios)["median"], ratios.min(), ratios.max()])
	print("| feet lifted per creature per frame while measured | %.3f | |" % [(lifts[0] - lifts_before) / float(maxi(stepping_frames * big, 1))])
	for method in ["stepping", "plain"]:
		print("| heap allocations, %s, over %d frames x %d creatures (after the first block): nodes' code / all Rust code | %d / %d | |" % [method, stepping_frames, big, allocations[method][0], allocations[method][1]])
	print("REACH2D_DONE")
	quit(0)
