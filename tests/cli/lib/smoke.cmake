# SPDX-License-Identifier: MIT
# Options that shrink a command to a smoke run of seconds. They go after the command's own options
# (schedlab-cli keeps the last value of a repeated option), so README lines run as written, smaller.
set(SMOKE_optimize --budget 50)
set(SMOKE_tune --generate layered:30:2 --budget 400 --threads 1)
set(SMOKE_bench --quick)
set(SMOKE_sweep --temperatures 3 --samples 20 --top-k 5)
# train MODEL: a step or two on tiny graphs with a tiny network. Every trainer needs an entry here
# (cli_train fails for one without), and WEIGHTS_<model>: the file name its optimizer loads from
# SCHEDLAB_MODELS_DIR.
set(SMOKE_train_topoformer --steps 2 --batch 2 --min-nodes 8 --max-nodes 12 --val-graphs 2 --val-nodes 10
    --epoch-steps 1 --width 8 --layers 1 --heads 1 --head-dim 4 --mlp 8 --threads 1)
set(WEIGHTS_topoformer topoformer-memory.slw)
set(SMOKE_train_priority-sampler --steps 2 --samples 4 --graphs 2 --validation-graphs 1 --validate-every 1
    --min-nodes 8 --max-nodes 12 --jobs 3 --machines 3 --width 8 --layers 1 --heads 1 --head-dim 4 --threads 1)
set(WEIGHTS_priority-sampler priority-sampler-layered-typed.slw)
set(SMOKE_train_gflownet --steps 2 --batch 2 --nodes 6-8 --devices 1-2 --graphs 2 --validation-graphs 1 --eval-samples 2
    --width 8 --layers 1 --heads 1 --head-dim 4 --mlp 8 --film 4 --threads 1)
set(WEIGHTS_gflownet gflownet.slw)
set(SMOKE_train_regal --steps 2 --batch 2 --samples-per-graph 2 --families layered --nodes 8-10 --graphs 2
    --validation-graphs 1 --validation-seeds 1 --validation-budget 300 --budget 300 --steer-after 1 --state 4 --rounds 1 --threads 1)
set(WEIGHTS_regal regal-memory-forward.slw)   # the test graph is a forward graph (models/regal/optimizer.h)

# smoke_options(RESULT args...): the smoke options for the command line `args` (empty if none).
function(smoke_options result command)
  set(options ${SMOKE_${command}})
  if(command STREQUAL "train")
    list(GET ARGN 0 model)
    if(NOT DEFINED SMOKE_train_${model})
      message(FATAL_ERROR "no smoke options for `train ${model}`: add SMOKE_train_${model} to tests/cli/lib/smoke.cmake")
    endif()
    set(options ${SMOKE_train_${model}})
  endif()
  set(${result} ${options} PARENT_SCOPE)
endfunction()
