/* chips.c — the built-in accelerator table.
 *
 * Dense peaks only. Where a vendor quotes "with sparsity" figures, the
 * dense figure is half (noted per row). The last figure of each row is the
 * vector (non-tensor FP32) throughput from the same datasheets: A100 19.5,
 * H100 SXM 67, H100 PCIe 51, H100 NVL 60, H200 67, L4 30.3, L40S 91.6,
 * RTX 4090 82.6, MI250X 47.9, MI300X and MI325X 163.4 TFLOP/s, H800 67, H20 44,
 * B300 75, GB300 80, RTX PRO 6000 Blackwell Server 120; 0 where the
 * vendor publishes none (the model then assumes the guide's ratio). Researched in
 * ../shared/data/chips-reference.json; sources are repeated in each row so
 * that `rooftop --list-chips` can show them on a machine without that file.
 */
#include "chips.h"

#include <string.h>

#define T 1e12
#define G 1e9
/* Dense peaks in enum order (units.h), the block formats from the plain
 * ones: fp8-block runs at the fp8 peak (its scales are applied per block
 * on the way into or out of fp8 matmuls: DeepSeek-V3, sec. 3.3); nvfp4 and
 * mxfp4 at the chip's dense FP4 peak where its tensor cores take that
 * format natively, 0 elsewhere. */
#define PEAKS(bf16, fp8, int8, int4, nvfp4, mxfp4) {(bf16), (fp8), (int8), (int4), (fp8), (nvfp4), (mxfp4)}
/* Streaming multiprocessors (NVIDIA) or compute units (AMD) from the
 * vendors' architecture documents, for the realistic estimate's wave
 * quantisation: A100 108, H100 SXM and NVL 132, H100 PCIe 114, H200 132,
 * B200 and GB200 148, L4 58, L40S 142, RTX 4090 128, MI250X 220 (2 x 110),
 * MI300X and MI325X 304, MI355X 256, H800 132 (an H100 die), H20 78 (its
 * Geekbench listing; NVIDIA publishes none), B300 and GB300 160 (NVIDIA's
 * "Inside Blackwell Ultra" blog, 2025-08; that may count the full die, as
 * B200 ships 148 of its 160), RTX PRO 6000 Blackwell 188 (the RTX
 * Blackwell whitepaper). TPUs and Gaudi have a few large matrix
 * units, not many small ones: no wave model. */
/* Scale-up domain (chips) and scale-out bandwidth per chip (aggregate
 * bidirectional, like the interconnect: twice the NIC's line rate), for
 * layouts that span more than one box (parallel.h). Sources: NVIDIA DGX
 * A100 user guide (8 GPUs on NVSwitch; one 200 Gb/s HDR ConnectX-6 per GPU
 * for compute), DGX H100/H200 and DGX B200 user guides (8 GPUs on NVSwitch;
 * one 400 Gb/s NDR ConnectX-7 per GPU), GB200 NVL72 (72 GPUs on one NVLink
 * domain; ConnectX-7 400 Gb/s per GPU), HGX B300 (8 GPUs; ConnectX-8
 * 800 Gb/s per GPU), GB300 NVL72 (72 GPUs; ConnectX-8 800 Gb/s per GPU),
 * DeepSeek-V3 technical report sec. 3.1 for H800 nodes (8 GPUs on NVSwitch;
 * 400 Gb/s InfiniBand per GPU), HGX H20 (8 GPUs on NVSwitch; its NICs
 * unpublished), the H100 PCIe and NVL NVLink
 * bridge (pairs), AMD Instinct MI300X/MI325X/MI355X platforms (8 GPUs on
 * Infinity Fabric), Google Cloud TPU system architecture (ICI pods: v4
 * 4096, v5e 256, v5p 8960, v6e 256, Ironwood 9216 chips), Intel Gaudi 2 and
 * Gaudi 3 white papers (8 per server; 3 of 24 RoCE ports per chip scale
 * out: 3 x 100 GbE and 3 x 200 GbE). 0 where the vendor publishes no figure
 * (PCIe cards vary by server; TPU data-centre networking per chip). */
#define NET(domain, out_bytes_per_s) .scale_up_domain = (domain), .scale_out_bytes_per_s = (out_bytes_per_s)
#define SM(n) .efficiency = {.sm_count = (n)}
/* Indicative price, USD per chip-hour: a public cloud's on-demand list
 * price for the instance divided by its chips, with the offer and the date
 * it was listed. Prices move (AWS cut P4 and P5 prices in 2025-06), differ by
 * region and fall with commitments; chips without such a listing keep 0
 * (unpublished) and a report says so rather than treat them as free. */
/* Figures where the sources disagree, one statement a line ("figure: value
 * (source) vs value (source)"); --list-chips --format=json gives them as the
 * array "conflicts". */
#define CONFLICTS(text) .conflicts = text
#define PRICE(usd, src) .price_usd_per_chip_hour = (usd), .price_source = src
/* A chip measured in the shared rows (tests/fixtures/measured/cases.csv,
 * `rows` of them): its SMs. Its elementwise profile, like every chip's, comes
 * from its kernel fits (detailed.c efficiency_from_kernels), which predict
 * those rows better (MAPE 11.0%) than the profile once fitted jointly to them
 * (11.2%); a chip file's "efficiency" block still overrides it. */
#define FITTED(n, rows) .efficiency = {.sm_count = (n)}

static const struct chip_spec builtin_chips[] = {
    {"a100-40", "NVIDIA A100 40GB SXM4", PEAKS(312 * T, 0, 624 * T, 1248 * T, 0, 0), 40 * G, 1555 * G, 600 * G, 400,
     "NVIDIA A100 datasheet (dense BF16 312, INT8 624, INT4 1248 TOPS; sparse figures are 2x); "
     "1.555 TB/s HBM2; NVLink3 600 GB/s bidirectional; 400 W",
     "No FP8 tensor cores: fp8 weights run at the bf16 peak.", "built-in", false, 19.5 * T, SM(108), NET(8, 50 * G), PRICE(32.7726 / 8, "AWS EC2 p4d.24xlarge on-demand, us-east-1: $32.7726/h for 8 GPUs (list price 2020-11)")},
    {"a100-80", "NVIDIA A100 80GB SXM4", PEAKS(312 * T, 0, 624 * T, 1248 * T, 0, 0), 80 * G, 2039 * G, 600 * G, 400,
     "NVIDIA A100 datasheet (2,039 GB/s for the 80GB SXM part; dense BF16 312, INT8 624, INT4 1248)",
     "No FP8.", "built-in", false, 19.5 * T, FITTED(108, "31"), NET(8, 50 * G),
     CONFLICTS("HBM bandwidth: 2.039 TB/s (datasheet) vs 2.03 TB/s (the guide) vs 2.0 TB/s (scaling-book, "
               "ml-engineering)")},
    {"h100", "NVIDIA H100 SXM5 80GB", PEAKS(989.4 * T, 1978.9 * T, 1978.9 * T, 0, 0, 0), 80 * G, 3350 * G, 900 * G, 700,
     "NVIDIA Hopper whitepaper (dense BF16 989.4, FP8 1978.9 TFLOP/s; the datasheet's 1,979/3,958 are with "
     "sparsity); H100 datasheet (3.35 TB/s HBM3, NVLink4 900 GB/s, 700 W)",
     "NVLink 900 GB/s is bidirectional (450 each way). No INT4 tensor cores on Hopper.", "built-in", false, 67 * T, FITTED(132, "34"), NET(8, 100 * G), PRICE(98.32 / 8, "AWS EC2 p5.48xlarge on-demand, us-east-1: $98.32/h for 8 GPUs (list price 2023-07; cut in 2025-06)"),
     CONFLICTS("bf16 peak: 989.4 TFLOP/s (Hopper whitepaper; ridge 295) vs 990 TFLOP/s (the guide; ridge 296)")},
    {"h100-pcie", "NVIDIA H100 PCIe 80GB", PEAKS(756.5 * T, 1513 * T, 1513 * T, 0, 0, 0), 80 * G, 2000 * G, 600 * G, 350,
     "NVIDIA H100 PCIe product brief PB-11133-001 (>2,000 GB/s, 350 W); H100 datasheet (BF16 1,513 / FP8 "
     "3,026 with sparsity, halved here); NVLink bridge 600 GB/s",
     "TDP configurable 300-350 W. PCIe Gen5 x16 alone is 128 GB/s bidirectional.", "built-in", false, 51 * T, SM(114), NET(2, 0)},
    {"h100-nvl", "NVIDIA H100 NVL 94GB", PEAKS(835.5 * T, 1670.5 * T, 1670.5 * T, 0, 0, 0), 94 * G, 3900 * G, 600 * G, 400,
     "NVIDIA H100 datasheet, H100 NVL column (BF16 1,671 / FP8 3,341 with sparsity, halved here; 94 GB; "
     "3.9 TB/s; 350-400 W)",
     "Per GPU of the two-GPU NVL pair.", "built-in", false, 60 * T, SM(132), NET(2, 0)},
    {"h200", "NVIDIA H200 SXM 141GB", PEAKS(989.4 * T, 1978.9 * T, 1978.9 * T, 0, 0, 0), 141 * G, 4800 * G, 900 * G, 700,
     "NVIDIA H200 page (141 GB HBM3e, 4.8 TB/s, FP8 3,958 with sparsity, up to 700 W); MLCommons inference "
     "v4.1 H200-SXM-141GBx8 system description (NVLink4 900 GB/s)",
     "Same compute as H100 SXM.", "built-in", false, 67 * T, FITTED(132, "10"), NET(8, 100 * G)},
    {"h800", "NVIDIA H800 SXM5 80GB", PEAKS(989.4 * T, 1978.9 * T, 1978.9 * T, 0, 0, 0), 80 * G, 3350 * G, 400 * G, 700,
     "NVIDIA H800 datasheet (BF16 1,979 / FP8 and INT8 3,958 with sparsity, halved here; 80 GB HBM3; 3.35 TB/s; "
     "NVLink 400 GB/s; 700 W; FP64 1 TFLOP/s); DeepSeek-V3 technical report, sec. 3.1 (8 GPUs a node on NVLink "
     "and NVSwitch; InfiniBand 50 GB/s per GPU each way)",
     "The H100 SXM's compute with NVLink cut to 400 GB/s bidirectional (export rules). DeepSeek-V3 quotes "
     "about 160 GB/s achieved on NVLink and 50 GB/s on IB. An H800 PCIe part (2 TB/s, 350 W) also exists; "
     "this row is the SXM one. No FP4 on Hopper: nvfp4 and mxfp4 run weight-only.", "built-in", false, 67 * T, SM(132), NET(8, 100 * G)},
    {"h20", "NVIDIA H20 96GB", PEAKS(148 * T, 296 * T, 296 * T, 0, 0, 0), 96 * G, 4000 * G, 900 * G, 400,
     "NVIDIA HGX H20 specification as reported by SemiAnalysis and Wccftech (2023-11; NVIDIA publishes no "
     "datasheet): dense BF16 148, FP8 and INT8 296, TF32 74, FP32 44 TFLOP/s; 96 GB HBM3; 4.0 TB/s; NVLink4 "
     "900 GB/s; 400 W; 78 SMs (its Geekbench listing)",
     "Export-limited Hopper: about 15% of the H100's compute with more bandwidth, so its bf16 ridge is 37 "
     "FLOP/byte. A 141 GB HBM3e variant (4.8 TB/s) was reported later. Scale-out NICs per GPU unpublished; "
     "HGX H20 boards hold 8 on NVSwitch.", "built-in", false, 44 * T, SM(78), NET(8, 0)},
    {"b200", "NVIDIA B200 (HGX, 1000 W)", PEAKS(2250 * T, 4500 * T, 4500 * T, 0, 9000 * T, 9000 * T), 180 * G, 8000 * G, 1800 * G, 1000,
     "NVIDIA DGX B200 datasheet (2,250 BF16, 4,500 FP8/INT8, 9,000 FP4 dense per GPU: 72 PFLOPS FP4 dense over "
     "8 GPUs; 1,440 GB over 8 GPUs; 8 TB/s; NVLink5 1.8 TB/s bidirectional); PTX ISA (tcgen05.mma block-scaled "
     "kind::mxf4nvf4 takes nvfp4 and mxfp4)",
     "FP4 9 PFLOP/s dense is the nvfp4 and mxfp4 peak, not an int4 one.", "built-in", false, 0, SM(148), NET(8, 100 * G),
     CONFLICTS("HBM capacity: 192 GB (launch material) vs 180 GB (DGX B200 1,440 GB / 8)" "\n"
               "HBM bandwidth: 8 TB/s (DGX B200) vs 7.7 TB/s" "\n"
               "nvfp4 peak: 9 PFLOP/s dense (DGX B200) vs 10 PF (ml-engineering)")},
    {"gb200", "NVIDIA GB200 (per GPU, NVL72)", PEAKS(2500 * T, 5000 * T, 5000 * T, 0, 10000 * T, 10000 * T), 186 * G, 8000 * G, 1800 * G, 1200,
     "NVIDIA GB200 NVL72 spec (rack figures with sparsity, / 72 GPUs / 2: FP4 1,440 PF -> 10 PF dense per "
     "GPU); 13.4 TB HBM3e / 72",
     "TDP ~1200 W per GPU is approximate.", "built-in", false, 0, SM(148), NET(72, 100 * G),
     CONFLICTS("HBM capacity per GPU: 186 GB (13.4 TB / 72) vs 192 GB (superchip 384 GB / 2)")},
    {"b300", "NVIDIA B300 (HGX, Blackwell Ultra)", PEAKS(2250 * T, 4500 * T, 150 * T, 0, 14000 * T, 14000 * T), 288 * G, 7700 * G, 1800 * G, 1100,
     "NVIDIA Blackwell Ultra datasheet, HGX B300 per GPU (dense 2,250 BF16, 4,500 FP8, 14,000 FP4, 150 INT8; "
     "7.7 TB/s; 1,100 W), as quoted by Verda's GB300 NVL72 article and AIConfigurator's b300_sxm.yaml; NVIDIA "
     "HGX page (8 x 288 GB = 2.3 TB HBM3e; NVLink5 1.8 TB/s bidirectional; ConnectX-8 800 Gb/s per GPU)",
     "INT8 cut to 1/30 of FP8 (153.5 per AIConfigurator).", "built-in", false, 75 * T, SM(160), NET(8, 200 * G),
     CONFLICTS("FP4 dense: 14 PF (datasheet) vs 13.5 (HGX page: 108 PF / 8) vs 13.1 (glennklockwood)" "\n"
               "HBM capacity: 288 GB (HGX page) vs 270 GB (first DGX B300 sheet; MLPerf B300-SXM-270GB)" "\n"
               "HBM bandwidth: 7.7 TB/s (datasheet) vs 7.75 (62 TB/s / 8) vs 8 TB/s" "\n"
               "TDP: 1,100 W (datasheet) vs 1,400 W (press, the GB300's)")},
    {"gb300", "NVIDIA GB300 (per GPU, NVL72)", PEAKS(2500 * T, 5000 * T, 165 * T, 0, 15000 * T, 15000 * T), 288 * G, 8000 * G, 1800 * G, 1400,
     "NVIDIA GB300 NVL72 spec (rack: FP4 1,440 PF sparse / 1,080 PF dense, FP8 720 and BF16 360 PF with "
     "sparsity, 576 TB/s HBM3e, NVLink 130 TB/s; per GPU / 72, sparse / 2); Blackwell Ultra datasheet per GPU "
     "(INT8 165 TOPS dense, 1,400 W) as quoted by Verda and AIConfigurator's gb300.yaml; NVIDIA Blackwell Ultra "
     "blog (288 GB HBM3e per GPU); ConnectX-8 800 Gb/s per GPU",
     "INT8 cut to 1/30 of FP8, as on B300. TDP per GPU, Grace not counted.", "built-in", false, 80 * T, SM(160), NET(72, 200 * G),
     CONFLICTS("HBM capacity: 288 GB (NVIDIA blog) vs 279 GB (Verda) vs 20 TB / 72 = 278 GB vs 21 TB / 72 = 292 GB; "
               "nvidia-smi shows 284,208 MiB (AIConfigurator)")},
    {"l4", "NVIDIA L4", PEAKS(121 * T, 242.5 * T, 242.5 * T, 0, 0, 0), 24 * G, 300 * G, 64 * G, 72,
     "NVIDIA L4 datasheet (BF16 242, FP8 485, INT8 485 with sparsity, halved here; 24 GB GDDR6; 300 GB/s; "
     "72 W)",
     "GDDR6, not HBM. No NVLink: interconnect is PCIe Gen4 x16 (64 GB/s bidirectional).", "built-in", false, 30.3 * T, SM(58), NET(0, 0)},
    {"l40s", "NVIDIA L40S", PEAKS(362.05 * T, 733 * T, 733 * T, 0, 0, 0), 48 * G, 864 * G, 64 * G, 350,
     "NVIDIA L40S datasheet (BF16 362.05 dense, FP8 733 dense; 48 GB GDDR6; 864 GB/s; 350 W)",
     "GDDR6; no NVLink (PCIe Gen4 x16).", "built-in", false, 91.6 * T, FITTED(142, "11"), NET(0, 0)},
    {"rtx-4090", "NVIDIA GeForce RTX 4090", PEAKS(165.2 * T, 330.3 * T, 660.6 * T, 0, 0, 0), 24 * G, 1008 * G, 64 * G, 450,
     "NVIDIA Ada Lovelace whitepaper (BF16 with FP32 accumulate 165.2 dense; FP8 330.3; INT8 660.6); 24 GB "
     "GDDR6X, 1,008 GB/s, 450 W",
     "GeForce parts run FP32-accumulate tensor math at half rate; bf16 here is that figure.", "built-in", false, 82.6 * T, FITTED(128, "2"), NET(0, 0)},
    {"rtx-pro-6000", "NVIDIA RTX PRO 6000 Blackwell Server", PEAKS(500 * T, 1000 * T, 1000 * T, 0, 2000 * T, 2000 * T), 96 * G, 1597 * G, 128 * G, 600,
     "NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet (FP4 4 PFLOPS with sparsity, 2,000 dense; 96 GB "
     "GDDR7 with ECC; 1,597 GB/s; FP32 120 TFLOP/s; up to 600 W; PCIe Gen5 x16); NVIDIA RTX Blackwell GPU "
     "architecture whitepaper (188 SMs; FP8 and INT8 at half and BF16 with FP32 accumulate at a quarter of the "
     "FP4 rate on RTX PRO parts)",
     "GDDR7, not HBM; no NVLink: PCIe Gen5 x16, 128 GB/s bidirectional. Power 400-600 W.", "built-in", false, 120 * T, SM(188), NET(0, 0),
     CONFLICTS("bandwidth: 1,597 GB/s (Server Edition) vs 1,792 GB/s (Workstation Edition; AIConfigurator's "
               "rtx_pro_6000_server.yaml, whose 467.8 / 935.6 / 1,871 TFLOP/s are these peaks at the 2,430 MHz it "
               "measured)")},
    {"mi250x", "AMD Instinct MI250X (2 GCDs)", PEAKS(383 * T, 0, 383 * T, 0, 0, 0), 128 * G, 3276.8 * G, 800 * G, 560,
     "AMD MI250X product page (383 TFLOP/s BF16, 383 TOPS INT8, 128 GB HBM2e, 3.2768 TB/s, 560 W; Infinity "
     "Fabric 8 x 100 GB/s)",
     "One package is two GCDs, each seen as a GPU (64 GB, ~1.64 TB/s). No FP8.", "built-in", false, 47.9 * T, SM(220), NET(0, 0)},
    {"mi300x", "AMD Instinct MI300X", PEAKS(1307.4 * T, 2614.9 * T, 2614.9 * T, 0, 0, 0), 192 * G, 5300 * G, 896 * G, 750,
     "AMD MI300X datasheet (dense FP16/BF16 1,307.4, FP8 2,614.9; 192 GB HBM3; 5.3 TB/s; 750 W; XGMI 7 x 64 "
     "GB/s = 896 GB/s duplex)",
     "", "built-in", false, 163.4 * T, SM(304), NET(8, 0),
     CONFLICTS("bf16 peak: some pages quote 2,615 as 'FP16 dense'; that is the sparse figure (dense 1,307.4)")},
    {"mi325x", "AMD Instinct MI325X", PEAKS(1307.4 * T, 2614.9 * T, 2614.9 * T, 0, 0, 0), 256 * G, 6000 * G, 896 * G, 1000,
     "AMD MI325X product page (same compute as MI300X; 256 GB HBM3e; 6.0 TB/s; 1000 W)",
     "", "built-in", false, 163.4 * T, SM(304), NET(8, 0),
     CONFLICTS("HBM capacity: 288 GB (launch material) vs 256 GB (as shipped)")},
    {"mi355x", "AMD Instinct MI355X", PEAKS(2500 * T, 5000 * T, 5000 * T, 0, 0, 10100 * T), 288 * G, 8000 * G, 1075.2 * G, 1400,
     "AMD MI355X product page (dense 2,500 BF16, 5,000 FP8, 10,100 MXFP4; 288 GB HBM3e; 8 TB/s; 1,400 W; XGMI "
     "7 x 153.6 GB/s); AMD CDNA 4 ISA (block-scaled MFMA with e8m0 scales per 32 elements: the OCP MX formats)",
     "MXFP4 only: CDNA 4 has no NVFP4 (e4m3 scales per 16), so nvfp4 weights run weight-only at the bf16 "
     "peak.", "built-in", false, 0, SM(256), NET(8, 0),
     CONFLICTS("mxfp4 peak: 20.1 PF quoted by press is the sparse figure (dense 10.1)")},
    {"tpu-v4", "Google TPU v4", PEAKS(275 * T, 0, 275 * T, 0, 0, 0), 34359738368.0, 1200 * G, 540 * G, 192,
     "Cloud TPU v4 documentation (275 TFLOP/s bf16 or int8; 32 GiB HBM2; 1,200 GB/s; measured max power "
     "192 W); scaling-book (ICI 6 links x 90 GB/s bidirectional)",
     "TDP is Google's measured max chip power. Interconnect derived from per-link figures.", "built-in", false, 0, .efficiency = {0}, NET(4096, 0), PRICE(3.22, "Google Cloud TPU pricing, v4 on-demand, us-central2: $3.22 per chip-hour (2023)")},
    {"tpu-v5e", "Google TPU v5e", PEAKS(197 * T, 0, 394 * T, 0, 0, 0), 16 * G, 819 * G, 400 * G, 0,
     "Cloud TPU v5e documentation (197 TFLOP/s bf16, 394 TOP/s int8; 16 GB HBM2; 819 GB/s; 400 GB/s "
     "bidirectional ICI)",
     "TDP unpublished. No FP8.", "built-in", false, 0, .efficiency = {0}, NET(256, 0), PRICE(1.20, "Google Cloud TPU pricing, v5e on-demand, us-west4: $1.20 per chip-hour (2024)"),
     CONFLICTS("HBM bandwidth: 819 GB/s (docs, the guide) vs 8.1e11 / 8.2e11 (scaling-book, JAX)")},
    {"tpu-v5p", "Google TPU v5p", PEAKS(459 * T, 459 * T, 918 * T, 0, 0, 0), 102005473280.0, 2765 * G, 1200 * G, 0,
     "Cloud TPU v5p documentation (459 TFLOP/s bf16, FP8 459; 95 GiB HBM2e; 2,765 GB/s; 1,200 GB/s "
     "bidirectional ICI); int8 918 per scaling-book",
     "FP8 runs at the bf16 rate. TDP unpublished.", "built-in", false, 0, .efficiency = {0}, NET(8960, 0), PRICE(4.20, "Google Cloud TPU pricing, v5p on-demand, us-east5: $4.20 per chip-hour (2024)"),
     CONFLICTS("HBM bandwidth: 2,765 GB/s (docs) vs 2.77 TB/s (the guide) vs 2.8e12 (scaling-book) vs 2.46e12 (JAX)")},
    {"tpu-v6e", "Google TPU v6e (Trillium)", PEAKS(918 * T, 918 * T, 1836 * T, 0, 0, 0), 32 * G, 1638 * G, 800 * G, 0,
     "Cloud TPU v6e documentation (918 TFLOP/s bf16, 1,836 TOP/s int8, 32 GB, 1,638 GB/s, 800 GB/s "
     "bidirectional ICI)",
     "FP8 runs at the bf16 rate. TDP unpublished.", "built-in", false, 0, .efficiency = {0}, NET(256, 0), PRICE(2.70, "Google Cloud TPU pricing, v6e on-demand, us-east5: $2.70 per chip-hour (2024-12)"),
     CONFLICTS("HBM capacity: 32 GB (docs) vs 32 GiB (JAX)")},
    {"tpu7x", "Google TPU7x (Ironwood)", PEAKS(2307 * T, 4614 * T, 0, 0, 0, 0), 206158430208.0, 7370 * G, 1200 * G, 0,
     "Cloud TPU7x documentation (2,307 TFLOP/s BF16, 4,614 FP8, 192 GiB HBM); Google blog (7.37 TB/s); 1.2 "
     "TB/s ICI",
     "TDP unpublished.", "built-in", false, 0, .efficiency = {0}, NET(9216, 0),
     CONFLICTS("HBM bandwidth: 7.37 TB/s (Google) vs 7.3 (press) vs 7.40e12 (JAX)")},
    {"gaudi2", "Intel Gaudi 2", PEAKS(432 * T, 865 * T, 0, 0, 0, 0), 96 * G, 2460 * G, 600 * G, 600,
     "Intel Hot Chips 2024 slides (Gaudi 2: 432 TFLOP/s BF16, 96 GB, 2.46 TB/s, 600 W); FP8 865 per "
     "ml-engineering",
     "INT8 supported but its peak is unpublished.", "built-in", false, 0, .efficiency = {0}, NET(8, 75 * G),
     CONFLICTS("fp8 peak: 865 TFLOP/s (ml-engineering) vs 835 (one source)")},
    {"gaudi3", "Intel Gaudi 3 (OAM HL-325L)", PEAKS(1835 * T, 1835 * T, 0, 0, 0, 0), 128 * G, 3670 * G, 1200 * G, 900,
     "Intel Hot Chips 2024 slides (BF16/FP8 matrix 1,835 TFLOP/s; 128 GB HBM2e; 3.67 TB/s; 24 x 200 GbE = "
     "1,200 GB/s; 900 W air-cooled)",
     "FP8 runs at the bf16 rate.", "built-in", false, 0, .efficiency = {0}, NET(8, 150 * G),
     CONFLICTS("bf16 peak: 1,835 TFLOP/s at 1,750 MHz (Hot Chips 2024) vs 1,677 at the 1,600 MHz shipping clock "
               "(ml-engineering)")},
};

#undef T
#undef G

/* Extra spellings people type, mapped to a built-in key. */
static const struct { const char *alias, *key; } chip_aliases[] = {
    {"h100-sxm", "h100"},   {"h100-sxm5", "h100"}, {"a100", "a100-80"},     {"a100-40gb", "a100-40"},
    {"a100-80gb", "a100-80"}, {"v5e", "tpu-v5e"},  {"v5p", "tpu-v5p"},      {"v4", "tpu-v4"},
    {"v6e", "tpu-v6e"},     {"trillium", "tpu-v6e"}, {"ironwood", "tpu7x"}, {"h200-sxm", "h200"},
    {"gb200-nvl72", "gb200"}, {"b300-sxm", "b300"}, {"hgx-b300", "b300"}, {"dgx-b300", "b300"},
    {"gb300-nvl72", "gb300"}, {"rtx-pro-6000-server", "rtx-pro-6000"}, {"rtx-pro-6000-blackwell", "rtx-pro-6000"},
    {"rtxpro6000", "rtx-pro-6000"}, {"h800-sxm", "h800"}, {"h800-sxm5", "h800"}, {"h20-96gb", "h20"},
};

size_t chip_builtin_count(void)
{
    return sizeof builtin_chips / sizeof builtin_chips[0];
}

const struct chip_spec *chip_builtin(size_t i)
{
    return i < chip_builtin_count() ? &builtin_chips[i] : NULL;
}

struct chip_list chip_builtin_list(void)
{
    struct chip_list list = {builtin_chips, chip_builtin_count()};
    return list;
}

int chip_list_index(struct chip_list list, const char *key)
{
    for (size_t i = 0; i < list.count; i++)
        if (strcmp(list.items[i].key, key) == 0)
            return (int)i;
    return -1;
}

/* The chip of list whose key or display name is name, ignoring case and
 * punctuation; NULL if none. */
static const struct chip_spec *find_exact(struct chip_list list, const char *want)
{
    char have[128];
    for (size_t i = 0; i < list.count; i++) {
        if (strcmp(want, name_normalize(have, sizeof have, list.items[i].key)) == 0 ||
            strcmp(want, name_normalize(have, sizeof have, list.items[i].name)) == 0)
            return &list.items[i];
    }
    return NULL;
}

const struct chip_spec *chip_list_find(struct chip_list list, const char *name)
{
    char want[128], have[128];
    name_normalize(want, sizeof want, name);
    if (want[0] == '\0')
        return NULL;
    const struct chip_spec *c = find_exact(list, want);
    for (size_t i = 0; !c && i < sizeof chip_aliases / sizeof chip_aliases[0]; i++)
        if (strcmp(want, name_normalize(have, sizeof have, chip_aliases[i].alias)) == 0)
            c = find_exact(list, name_normalize(have, sizeof have, chip_aliases[i].key));
    return c;
}

const struct chip_spec *chip_find(const char *name)
{
    return chip_list_find(chip_builtin_list(), name);
}
