extends "res://common/demo.gd"
## A scene built in the editor, not in code: open setup.tscn to see the nodes. Two identical arms, the right one
## under a Skeleton2D with scale.x = -1, reach for the same target; each is a FabrikChain2D with an elbow limit.
## This script only moves the target.

@onready var target: Node2D = $Target
@onready var arms: Array[Node2D] = [$LeftArm, $RightArm]


func demo_title() -> String:
	return "Scene setup: two arms, one mirrored"


func demo_help() -> String:
	return "Everything here is in setup.tscn: Skeleton2D, Bone2D, two FabrikChain2D nodes with an elbow limit. The right skeleton has scale.x = -1 and reaches exactly like the left one. Open the scene in the editor to see the preview."


func _demo_process(_delta: float) -> void:
	target.position = aim()
	set_status("left error %.3f px   right error %.3f px" % [arms[0].last_error, arms[1].last_error])


func _draw_overlay(canvas: Node2D) -> void:
	draw_marker(canvas, target.position, 9.0, ACCENT)


func auto_aim(t: float) -> Vector2:
	return Vector2(480, 300) + Vector2(cos(t * 0.9), sin(t * 1.3)) * 30.0


func get_ik_nodes() -> Array:
	return arms


func summary() -> String:
	return "two FabrikChain2D, one under scale.x = -1"
