extends SceneTree
const Ragdolls := preload("res://lib/ragdolls.gd")
const Rig := preload("res://lib/rig.gd")
const FLOOR := Rect2(-2000, 600, 4000, 400)
const STEP := Rect2(400, 560, 1600, 40)
func _initialize():
	_run.call_deferred()
func box(rect: Rect2):
	var body := StaticBody2D.new()
	body.position = rect.get_center()
	var shape := CollisionShape2D.new()
	var r := RectangleShape2D.new()
	r.size = rect.size
	shape.shape = r
	body.add_child(shape)
	root.add_child(body)
func _run():
	box(FLOOR)
	box(STEP)
	var holder := Node2D.new()
	root.add_child(holder)
	var figure := Ragdolls.figure(holder, Vector2(400, 420))
	figure["skeleton"].rotation = 0.4
	var ragdoll: Node2D
	if OS.get_environment("NOLIM") != "":
		ragdoll = ClassDB.instantiate("Ragdoll2D"); holder.add_child(ragdoll); ragdoll.root_bone = figure["bones"][0]
	else:
		ragdoll = Ragdolls.ragdoll(holder, figure)
	for i in 3:
		await physics_frame
	ragdoll.start()
	for t in 240:
		await physics_frame
		if true:
			var worst := 0.0
			var which := ""
			for b in figure["bones"]:
				for bx in [FLOOR, STEP]:
					var d := Ragdolls.depth_in_box(b.global_position, Rig.bone_end(b), bx)
					if d > worst:
						worst = d
						which = b.name
			if worst > 0.5: print("t %d depth %.2f %s hips %s" % [t, worst, which, figure["bones"][0].global_position])
	quit()
