#version 450
// GLSL, not HLSL (HLSL has no clustered wave ops): a module that needs the subgroup
// "clustered" operations, which lavapipe 22.3 does not support.
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } out_buf;
void main() {
  out_buf.data[gl_LocalInvocationIndex] = subgroupClusteredAdd(gl_LocalInvocationIndex, 4);
}
