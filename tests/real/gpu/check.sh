#!/bin/bash
# The real projects' loopback builds against their stock builds, on a GPU, from the unchanged sdists staged by
# stage.py in .device/: torchsort 0.1.10 (its own tests), DeepSpeed 0.19.8's FusedAdam op and rwkv 0.8.30's JIT op
# library (load() at import: cuBLAS GEMM, int8 matmuls, WKV). Each is built twice, with the real nvcc and through
# torchada (TORCHADA_BACKEND=loopback), and the results of the two builds are compared bit for bit.
#   bash tests/real/gpu/check.sh      (from the repository root; WORK, OUT, PYTHON and ARCH may be set)
set -u
R=$(pwd); G=$R/tests/real/gpu; D=$R/.device; W=${WORK:-/tmp/gpu}; OUT=${OUT:-$W/out}; PY=${PYTHON:-python3}
mkdir -p "$W" "$OUT"; export PYTHONUNBUFFERED=1
exec > >(tee "$OUT/log") 2>&1
nvidia-smi -L 2>/dev/null; $PY -c "import torch; print('torch', torch.__version__, torch.cuda.is_available() and torch.cuda.get_device_name())"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
export CUDA_HOME=$(dirname "$(dirname "$NVCC")") PATH=$(dirname "$NVCC"):$PATH
# cuBLAS, cuSPARSE & co. headers from the NVIDIA wheels beside torch, for a CUDA install that has only the runtime
export CPATH=$($PY -c "import nvidia, pathlib; print(':'.join(str(p) for d in nvidia.__path__ for p in sorted(pathlib.Path(d).glob('*/include'))))")
T0=$SECONDS
$PY -m pip install -q --upgrade --no-index --no-deps --no-build-isolation --target "$W/site" "$D"/whl/*.whl "$R" || exit 1
export PYTHONPATH=$W/site PATH=$W/site/bin:$PATH TORCH_CUDA_ARCH_LIST=${ARCH:-9.0} MAX_JOBS=6 TORCH_NO_COMPILER_WRAPPER=1
echo "$($NVCC --version | tail -1); torchada installed in $((SECONDS - T0)) s"

build() {  # name mode [VAR=value ...]: setup.py build_ext --inplace, or (rwkv) the probe, whose import runs load()
    local name=$1 mode=$2 dir=$W/$1-$2 launcher=() start=$SECONDS; shift 2
    mkdir -p "$dir" && tar xzf "$D"/sdists/$name-*.tar.gz -C "$dir" --strip-components=1 && cd "$dir" || return 1
    [ "$mode" = loopback ] && launcher=(-m torchada_build)
    if [ "$name" = rwkv ]; then
        env TORCH_EXTENSIONS_DIR="$W/ext-$mode" TORCHADA_BACKEND=$mode TORCHADA_CACHE_DIR="$W/cache-$name" \
            $PY "${launcher[@]}" "$G/probe.py" rwkv "$dir" "$W/rwkv-$mode.pt" > "$W/$name-$mode.log" 2>&1
    else
        env "$@" TORCHADA_BACKEND=$mode TORCHADA_CACHE_DIR="$W/cache-$name" \
            $PY "${launcher[@]}" setup.py build_ext --inplace > "$W/$name-$mode.log" 2>&1
    fi
    local rc=$?
    echo "build $name $mode: exit $rc in $((SECONDS - start)) s; findings: $(grep -c 'TA1[0-9]*\]' "$W/$name-$mode.log")"
    [ $rc = 0 ] || tail -25 "$W/$name-$mode.log"
    return $rc
}
pids=()
for mode in nvcc loopback; do
    build torchsort $mode & pids+=($!)
    build deepspeed $mode DS_BUILD_OPS=0 DS_BUILD_FUSED_ADAM=1 DS_ACCELERATOR=cuda & pids+=($!)
    build rwkv $mode & pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
grep -h "^nvcc = " "$W"/ext-*/wkv_cuda/build.ninja
for mode in nvcc loopback; do
    echo "== torchsort's own tests, $mode build"
    (cd "$W/torchsort-$mode" && PYTHONPATH="$D/pylib:$PYTHONPATH" $PY -m pytest -q -p no:cacheprovider tests/test_ops.py 2>&1 | tail -3) || status=1
    $PY "$G/probe.py" torchsort "$W/torchsort-$mode" "$W/torchsort-$mode.pt" || status=1
    $PY "$G/probe.py" fused_adam "$W/deepspeed-$mode" "$W/deepspeed-$mode.pt" || status=1
done
grep -h "^rwkv " "$W"/rwkv-*.log
echo "== the loopback builds against the stock builds"
$PY "$G/compare.py" "$W/torchsort-nvcc.pt" "$W/torchsort-loopback.pt" || status=1
$PY "$G/compare.py" "$W/deepspeed-nvcc.pt" "$W/deepspeed-loopback.pt" || status=1
# rwkv's mm8_one sums with float atomicAdd: the stock build against itself shows how much the order moves it
(cd "$W/rwkv-nvcc" && TORCH_EXTENSIONS_DIR="$W/ext-nvcc" $PY "$G/probe.py" rwkv "$W/rwkv-nvcc" "$W/rwkv-nvcc-again.pt" > /dev/null 2>&1)
echo "-- rwkv's stock build against itself:"; $PY "$G/compare.py" "$W/rwkv-nvcc.pt" "$W/rwkv-nvcc-again.pt" | tail -1
$PY "$G/compare.py" "$W/rwkv-nvcc.pt" "$W/rwkv-loopback.pt" mm8_one-torch.float32 mm8_one-torch.float16 || status=1
cp "$W"/*-nvcc.log "$W"/*-loopback.log "$OUT"/ 2>/dev/null
echo "total $((SECONDS - T0)) s, status $status"
exit $status
