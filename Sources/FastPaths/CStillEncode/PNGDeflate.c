// The PNG fallback's pixel stream: PNG's Paeth filter on every row, then deflate (RFC 1951)
// made of literals and runs of the previous byte, Huffman-coded per block. See
// include/CStillEncode.h for the contract. Written here.
//
// Why not a general LZ77 compressor: a photo's filtered rows hold almost no repeated strings,
// so the fastest levels of zlib and libdeflate spend their time looking for matches that are
// not there, and a Huffman-only stream comes out no larger (smaller, on photo-like stickers).
// What a sticker does repeat is its transparent background, which the filter turns into long
// runs of zeros: those are the only matches coded (distance 1, the byte before).
#include "CStillEncode.h"
#include <stdlib.h>
#include <string.h>

// MARK: Paeth filter

// One row of the Paeth filter (filter type 4): each byte minus the neighbour among left (a),
// above (b) and upper-left (c) closest to a + b - c, ties in that order. Every predictor
// comes from the unfiltered image, so the bytes are independent: the loop vectorises.
#define PAETH_ROW_BODY                                                                   \
    for (size_t i = 0; i < bpp && i < n; i++) out[i] = (uint8_t)(row[i] - above[i]);     \
    for (size_t i = bpp; i < n; i++) {                                                   \
        int a = row[i - bpp], b = above[i], c = above[i - bpp];                          \
        int pa = b - c, pb = a - c, pc = a + b - 2 * c;                                  \
        pa = pa < 0 ? -pa : pa;                                                          \
        pb = pb < 0 ? -pb : pb;                                                          \
        pc = pc < 0 ? -pc : pc;                                                          \
        int predicted = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);                 \
        out[i] = (uint8_t)(row[i] - predicted);                                          \
    }

__attribute__((target("avx2")))
static void paeth_row_avx2(const uint8_t *restrict row, const uint8_t *restrict above, size_t n, size_t bpp,
                           uint8_t *restrict out) {
    PAETH_ROW_BODY
}

static void paeth_row_sse2(const uint8_t *restrict row, const uint8_t *restrict above, size_t n, size_t bpp,
                           uint8_t *restrict out) {
    PAETH_ROW_BODY
}

static int paeth_avx2_state = -1;

static int paeth_has_avx2(void) {
    int value = __atomic_load_n(&paeth_avx2_state, __ATOMIC_RELAXED);
    if (value < 0) {
        __builtin_cpu_init();
        value = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&paeth_avx2_state, value, __ATOMIC_RELAXED);
    }
    return value;
}

int jm_png_filter_paeth(const uint8_t *pixels, size_t row_bytes, size_t height, size_t bpp, uint8_t *filtered) {
    // The row above the first is zeros: Paeth then predicts from the left only.
    uint8_t *zeros = calloc(row_bytes ? row_bytes : 1, 1);
    if (zeros == NULL) return -1;
    const int avx2 = paeth_has_avx2();
    for (size_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + y * row_bytes;
        const uint8_t *above = y == 0 ? zeros : row - row_bytes;
        uint8_t *out = filtered + y * (row_bytes + 1);
        out[0] = 4;
        if (avx2) paeth_row_avx2(row, above, row_bytes, bpp, out + 1);
        else paeth_row_sse2(row, above, row_bytes, bpp, out + 1);
    }
    free(zeros);
    return 0;
}

// MARK: Bit output

typedef struct {
    uint8_t *out;
    size_t position;   // bytes written
    uint64_t bits;     // pending bits, the first to go in the low end
    unsigned count;    // how many are pending (< 8 between calls)
} bit_writer;

// Adds the low `n` (≤ 32) bits of `value`, first bit first, without a branch: the pending
// bits are stored as eight bytes every time and the position moves past the whole bytes. The
// caller's capacity has eight bytes to spare for that.
static inline void put_bits(bit_writer *w, uint32_t value, unsigned n) {
    w->bits |= (uint64_t)value << w->count;
    w->count += n;
    memcpy(w->out + w->position, &w->bits, 8);  // little-endian: the first bit in the first byte
    w->position += w->count >> 3;
    w->bits >>= w->count & ~7u;
    w->count &= 7;
}

// Pads the pending bits with zeros to a byte boundary and writes them.
static void align_to_byte(bit_writer *w) {
    if (w->count > 0) w->out[w->position++] = (uint8_t)w->bits;
    w->bits = 0;
    w->count = 0;
}

// MARK: Huffman codes

// Code lengths, at most `limit` bits, for the `n` symbols' frequencies: an optimal code from
// the two-queue construction, then (when too deep) the over-long leaves moved up to `limit`
// and the Kraft sum restored by splitting the deepest shorter leaves. A lone used symbol
// gets a second one beside it (a one-code tree is not a complete prefix code).
static void huffman_lengths(const uint32_t *frequency, int n, int limit, uint8_t *lengths) {
    uint64_t keys[288];
    uint64_t weight[2 * 288];
    int parent[2 * 288], depth[2 * 288];
    int used = 0;
    memset(lengths, 0, (size_t)n);
    for (int symbol = 0; symbol < n; symbol++)
        if (frequency[symbol]) keys[used++] = ((uint64_t)frequency[symbol] << 9) | (uint64_t)symbol;
    if (used == 0) return;
    if (used == 1) {
        int symbol = (int)(keys[0] & 511);
        lengths[symbol] = 1;
        lengths[symbol == 0 ? 1 : 0] = 1;
        return;
    }
    // Leaves by ascending frequency (insertion sort: at most 286 keys, mostly in order).
    for (int i = 1; i < used; i++) {
        uint64_t key = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > key) { keys[j + 1] = keys[j]; j--; }
        keys[j + 1] = key;
    }
    for (int i = 0; i < used; i++) weight[i] = keys[i] >> 9;
    // Internal nodes are made in non-decreasing weight order, so two queues suffice: the
    // sorted leaves and the internal nodes made so far.
    int leaf = 0, node = used, next = used;
    for (int k = 0; k < used - 1; k++) {
        int pick[2];
        for (int j = 0; j < 2; j++) {
            if (leaf < used && (node >= next || weight[leaf] <= weight[node])) pick[j] = leaf++;
            else pick[j] = node++;
        }
        weight[next] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = next;
        next++;
    }
    const int root = 2 * used - 2;
    depth[root] = 0;
    for (int i = root - 1; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
    int count[64] = {0};
    for (int i = 0; i < used; i++) count[depth[i] > limit ? limit : depth[i]]++;
    // Kraft sum in units of 2^-limit; over 2^limit when leaves were moved up.
    uint64_t kraft = 0;
    for (int d = 1; d <= limit; d++) kraft += (uint64_t)count[d] << (limit - d);
    while (kraft > (1ull << limit)) {
        count[limit]--;
        int d = limit - 1;
        while (d > 0 && count[d] == 0) d--;
        count[d]--;
        count[d + 1] += 2;
        kraft--;
    }
    // The most frequent symbols get the shortest codes.
    int index = used - 1;
    for (int d = 1; d <= limit; d++)
        for (int k = 0; k < count[d]; k++) lengths[keys[index--] & 511] = (uint8_t)d;
}

// Canonical codes for the lengths (RFC 1951 3.2.2), bit-reversed for the LSB-first writer.
static void canonical_codes(const uint8_t *lengths, int n, uint16_t *codes) {
    int count[16] = {0};
    uint16_t next[16];
    for (int s = 0; s < n; s++) count[lengths[s]]++;
    count[0] = 0;
    uint16_t code = 0;
    for (int bits = 1; bits < 16; bits++) {
        code = (uint16_t)((code + count[bits - 1]) << 1);
        next[bits] = code;
    }
    for (int s = 0; s < n; s++) {
        int len = lengths[s];
        if (len == 0) { codes[s] = 0; continue; }
        uint16_t value = next[len]++, reversed = 0;
        for (int b = 0; b < len; b++) reversed |= (uint16_t)(((value >> b) & 1) << (len - 1 - b));
        codes[s] = reversed;
    }
}

// MARK: Deflate blocks

enum {
    BLOCK_BYTES = 65535,   // input per block: one stored block when stored is cheaper
    MIN_RUN = 4,           // shorter repeats are cheaper as literals in filtered photos
    MAX_RUN = 258,
    RUN_TOKEN = 0x8000,    // token flag: a run of (token & 0x1FF) bytes, distance 1
};

static const uint16_t length_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                         35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint8_t code_length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// The block's literals and runs as tokens, and the literal/length symbols' frequencies;
// returns the number of tokens. `start` > 0 lets a run begin at the block's first byte.
//
// A run starts where four bytes equal the one before. Eight bytes are compared with the
// eight before them at once (their XOR has a zero byte where a byte repeats its
// predecessor); four zero bytes in a row mark a run, and five positions are settled per
// load. In a photo's filtered rows that is rare, so the loop mostly copies literals.
static size_t tokenise(const uint8_t *data, size_t start, size_t end, uint16_t *tokens,
                       uint32_t *frequency, const uint8_t *length_code) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull;
    size_t i = start, t = 0;
    if (i == 0 && i < end) {
        frequency[data[0]]++;
        tokens[t++] = data[i++];
    }
    while (i + 8 <= end) {
        uint64_t here, before;
        memcpy(&here, data + i, 8);
        memcpy(&before, data + i - 1, 8);
        const uint64_t x = here ^ before;
        const uint64_t zero = ~(((x & low7) + low7) | x) & high;  // 0x80 in each repeated byte
        const uint64_t four = zero & zero >> 8 & zero >> 16 & zero >> 24;
        const size_t literals = four ? (size_t)__builtin_ctzll(four) >> 3 : 5;
        for (size_t k = 0; k < literals; k++) {
            frequency[data[i + k]]++;
            tokens[t + k] = data[i + k];
        }
        t += literals;
        i += literals;
        if (four) {
            const uint8_t value = data[i - 1];
            size_t limit = end - i < MAX_RUN ? end - i : MAX_RUN, run = MIN_RUN;
            while (run < limit && data[i + run] == value) run++;
            frequency[257 + length_code[run]]++;
            tokens[t++] = (uint16_t)(RUN_TOKEN | run);
            i += run;
        }
    }
    // The last few bytes: literals, or one short run.
    while (i < end) {
        if (i + MIN_RUN <= end && i > 0) {
            const uint8_t value = data[i - 1];
            size_t run = 0;
            while (i + run < end && data[i + run] == value) run++;
            if (run >= MIN_RUN) {
                frequency[257 + length_code[run]]++;
                tokens[t++] = (uint16_t)(RUN_TOKEN | run);
                i += run;
                continue;
            }
        }
        frequency[data[i]]++;
        tokens[t++] = data[i++];
    }
    return t;
}

// Run-length codes (RFC 1951 3.2.7) of the code-length sequence: symbols 0–15, 16 (repeat the
// previous 3–6 times, 2 extra bits), 17 (3–10 zeros, 3 bits), 18 (11–138 zeros, 7 bits).
// Each item is symbol | extra << 5.
static int code_length_items(const uint8_t *sequence, int n, uint16_t *items) {
    int count = 0, i = 0;
    while (i < n) {
        uint8_t value = sequence[i];
        int run = 1;
        while (i + run < n && sequence[i + run] == value) run++;
        if (value == 0 && run >= 3) {
            int take = run > 138 ? 138 : run;
            items[count++] = take >= 11 ? (uint16_t)(18 | (take - 11) << 5) : (uint16_t)(17 | (take - 3) << 5);
            i += take;
        } else if (value != 0 && run >= 4) {
            items[count++] = value;
            int rest = run - 1, done = 1;
            while (rest >= 3) {
                int take = rest > 6 ? 6 : rest;
                items[count++] = (uint16_t)(16 | (take - 3) << 5);
                rest -= take;
                done += take;
            }
            i += done;
        } else {
            items[count++] = value;
            i += 1;
        }
    }
    return count;
}

static const uint8_t item_extra_bits[19] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};

// One block: dynamic Huffman when it costs fewer bits than storing the bytes, else stored.
static void write_block(bit_writer *w, const uint8_t *data, size_t start, size_t end, int final,
                        uint16_t *tokens, const uint8_t *length_code) {
    uint32_t literal_frequency[286] = {0};
    const size_t token_count = tokenise(data, start, end, tokens, literal_frequency, length_code);
    uint64_t runs = 0;
    for (int c = 0; c < 29; c++) runs += literal_frequency[257 + c];
    literal_frequency[256] = 1;
    uint8_t literal_lengths[286], distance_lengths[2] = {1, 1};
    uint16_t literal_codes[286], distance_codes[2] = {0, 1};
    huffman_lengths(literal_frequency, 286, 15, literal_lengths);
    canonical_codes(literal_lengths, 286, literal_codes);

    int literal_count = 286;
    while (literal_count > 257 && literal_lengths[literal_count - 1] == 0) literal_count--;
    const int distance_count = 2;
    uint8_t sequence[288];
    memcpy(sequence, literal_lengths, (size_t)literal_count);
    memcpy(sequence + literal_count, distance_lengths, distance_count);
    uint16_t items[288];
    const int item_count = code_length_items(sequence, literal_count + distance_count, items);
    uint32_t item_frequency[19] = {0};
    for (int k = 0; k < item_count; k++) item_frequency[items[k] & 31]++;
    uint8_t item_lengths[19];
    uint16_t item_codes[19];
    huffman_lengths(item_frequency, 19, 7, item_lengths);
    canonical_codes(item_lengths, 19, item_codes);
    int order_count = 19;
    while (order_count > 4 && item_lengths[code_length_order[order_count - 1]] == 0) order_count--;

    // Cost in bits of the dynamic block against the stored one (with the worst padding).
    uint64_t dynamic = 3 + 5 + 5 + 4 + 3 * (uint64_t)order_count;
    for (int k = 0; k < item_count; k++) dynamic += item_lengths[items[k] & 31] + item_extra_bits[items[k] & 31];
    for (int s = 0; s < 286; s++) dynamic += (uint64_t)literal_frequency[s] * literal_lengths[s];
    for (int c = 0; c < 29; c++) dynamic += (uint64_t)literal_frequency[257 + c] * length_extra[c];
    dynamic += (uint64_t)runs * distance_lengths[0];
    const uint64_t stored = 3 + 7 + 32 + 8 * (uint64_t)(end - start);

    if (dynamic >= stored) {
        put_bits(w, (uint32_t)final, 1);
        put_bits(w, 0, 2);
        align_to_byte(w);
        const uint16_t length = (uint16_t)(end - start);
        w->out[w->position++] = (uint8_t)length;
        w->out[w->position++] = (uint8_t)(length >> 8);
        w->out[w->position++] = (uint8_t)~length;
        w->out[w->position++] = (uint8_t)(~length >> 8);
        memcpy(w->out + w->position, data + start, end - start);
        w->position += end - start;
        return;
    }

    put_bits(w, (uint32_t)final, 1);
    put_bits(w, 2, 2);
    put_bits(w, (uint32_t)(literal_count - 257), 5);
    put_bits(w, (uint32_t)(distance_count - 1), 5);
    put_bits(w, (uint32_t)(order_count - 4), 4);
    for (int k = 0; k < order_count; k++) put_bits(w, item_lengths[code_length_order[k]], 3);
    for (int k = 0; k < item_count; k++) {
        int symbol = items[k] & 31;
        put_bits(w, item_codes[symbol], item_lengths[symbol]);
        if (item_extra_bits[symbol]) put_bits(w, items[k] >> 5, item_extra_bits[symbol]);
    }
    // The tokens, with the writer in locals (stores through `out` could alias `*w`) and the
    // literals three at a time (at most 45 bits, added to under 8 pending) per store.
    uint32_t literal_entry[256];
    for (int s = 0; s < 256; s++) literal_entry[s] = literal_codes[s] | (uint32_t)literal_lengths[s] << 16;
    uint8_t *out = w->out;
    size_t position = w->position;
    uint64_t bits = w->bits;
    unsigned count = w->count;
#define FLUSH_WHOLE_BYTES                          \
    memcpy(out + position, &bits, 8);              \
    position += count >> 3;                        \
    bits >>= count & ~7u;                          \
    count &= 7;
    size_t t = 0;
    while (t < token_count) {
        if (t + 3 <= token_count && ((tokens[t] | tokens[t + 1] | tokens[t + 2]) & RUN_TOKEN) == 0) {
            const uint32_t e0 = literal_entry[tokens[t]], e1 = literal_entry[tokens[t + 1]],
                           e2 = literal_entry[tokens[t + 2]];
            bits |= (uint64_t)(e0 & 0xFFFF) << count;
            count += e0 >> 16;
            bits |= (uint64_t)(e1 & 0xFFFF) << count;
            count += e1 >> 16;
            bits |= (uint64_t)(e2 & 0xFFFF) << count;
            count += e2 >> 16;
            FLUSH_WHOLE_BYTES
            t += 3;
            continue;
        }
        const uint16_t token = tokens[t++];
        if (token & RUN_TOKEN) {
            const unsigned run = token & 0x1FF, code = length_code[run];
            bits |= (uint64_t)literal_codes[257 + code] << count;
            count += literal_lengths[257 + code];
            bits |= (uint64_t)(run - length_base[code]) << count;
            count += length_extra[code];
            bits |= (uint64_t)distance_codes[0] << count;
            count += distance_lengths[0];
        } else {
            bits |= (uint64_t)(literal_entry[token] & 0xFFFF) << count;
            count += literal_entry[token] >> 16;
        }
        FLUSH_WHOLE_BYTES
    }
#undef FLUSH_WHOLE_BYTES
    w->position = position;
    w->bits = bits;
    w->count = count;
    put_bits(w, literal_codes[256], literal_lengths[256]);
}

size_t jm_deflate_runs_bound(size_t size) {
    // Every block costs at most its stored form (under 6 bytes of header + the bytes), plus
    // the final padding and the writer's four-byte stores.
    return size + (size / BLOCK_BYTES + 1) * 6 + 16;
}

ptrdiff_t jm_deflate_runs(const uint8_t *data, size_t size, uint8_t *out, size_t capacity) {
    if (capacity < jm_deflate_runs_bound(size)) return -1;
    uint16_t *tokens = malloc(BLOCK_BYTES * sizeof(uint16_t));
    if (tokens == NULL) return -1;
    uint8_t length_code[MAX_RUN + 1] = {0};
    for (int c = 0; c < 29; c++) {
        int last = c == 28 ? MAX_RUN : length_base[c + 1] - 1;
        for (int length = length_base[c]; length <= last; length++) length_code[length] = (uint8_t)c;
    }
    bit_writer writer = {out, 0, 0, 0};
    size_t start = 0;
    do {
        size_t end = size - start > BLOCK_BYTES ? start + BLOCK_BYTES : size;
        write_block(&writer, data, start, end, end == size, tokens, length_code);
        start = end;
    } while (start < size);
    align_to_byte(&writer);
    free(tokens);
    return (ptrdiff_t)writer.position;
}
