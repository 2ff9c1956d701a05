-- A penalty contact between a ball (radius R) and the ground plane z = 0: a spring-damper
-- pushes while the ball penetrates, and never pulls.
R = 0.1        -- m
K = 1.0e5      -- N/m
C = 20.0       -- N s/m

function ground_contact(t, nodes)
  local ball = nodes[1]
  local depth = R - ball.X[3]
  local Fz = 0
  if depth > 0 then Fz = math.max(0, K * depth - C * ball.V[3]) end
  return {{F = {0, 0, Fz}}}
end
