// main.cpp: runs one twin of a twins.cu on host threads (emu.h) with the
// parameters twinharness.DumpTwins wrote and compares its outputs with the
// cpu backend's. Built by run.sh: TWINS names the .cu, KERNELS lists
// K(name) for each kernel. Usage: cuemu NAME FILE.bin
#include "emu.h"
#include TWINS
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

// Param is one twin parameter; it converts to whatever the kernel takes.
struct Param {
	long long i = 0;
	float f = 0;
	double d = 0;
	void* p = nullptr;
	char kind = 0;
	long long n = 0;
	int esize = 0;
	bool out = false;
	std::vector<char> want;
	operator long long() const { return i; }
	operator float() const { return f; }
	operator double() const { return d; }
	template <class T> operator T*() const { return (T*)p; }
};

template <class... A, size_t... I>
void callWith(void (*k)(A...), std::vector<Param>& ps, std::index_sequence<I...>) { k(ps[I]...); }

// launch runs k over the grid, one block at a time.
template <class... A>
void launch(void (*k)(A...), std::vector<Param>& ps) {
	if (ps.size() != sizeof...(A)) {
		fprintf(stderr, "%zu parameters, the kernel takes %zu\n", ps.size(), sizeof...(A));
		exit(2);
	}
	unsigned n = blockDim.x * blockDim.y * blockDim.z;
	for (unsigned bz = 0; bz < gridDim.z; bz++)
		for (unsigned by = 0; by < gridDim.y; by++)
			for (unsigned bx = 0; bx < gridDim.x; bx++) {
				blockIdx = {bx, by, bz};
				std::barrier<> bar(n);
				emuBarrier = &bar;
				std::vector<std::thread> ts;
				for (unsigned t = 0; t < n; t++) {
					uint3 tid = {t % blockDim.x, t / blockDim.x % blockDim.y, t / (blockDim.x * blockDim.y)};
					ts.emplace_back([tid, k, &ps] {
						threadIdx = tid;
						callWith(k, ps, std::index_sequence_for<A...>{});
					});
				}
				for (auto& t : ts) t.join();
			}
}

#define K(name) {#name, [](std::vector<Param>& ps) { launch(name, ps); }}
static std::map<std::string, std::function<void(std::vector<Param>&)>> kernels = {KERNELS};

template <class T> static void get(FILE* fp, T* v, size_t n = 1) {
	if (fread(v, sizeof(T), n, fp) != n) {
		fprintf(stderr, "short dump file\n");
		exit(2);
	}
}

static std::vector<Param> readDump(FILE* fp, double* tol) {
	int32_t d[6];
	get(fp, d, 6);
	gridDim = {(unsigned)d[0], (unsigned)d[1], (unsigned)d[2]};
	blockDim = {(unsigned)d[3], (unsigned)d[4], (unsigned)d[5]};
	get(fp, tol);
	int32_t np;
	get(fp, &np);
	std::vector<Param> ps(np);
	for (auto& p : ps) {
		char tag;
		get(fp, &tag);
		if (tag == 'I') get(fp, &p.i);
		else if (tag == 'F') get(fp, &p.f);
		else if (tag == 'D') get(fp, &p.d);
		else {
			get(fp, &p.kind);
			get(fp, &p.n);
			get(fp, &p.esize);
			p.p = aligned_alloc(64, (p.n * p.esize / 64 + 1) * 64);
			get(fp, (char*)p.p, p.n * p.esize);
			char out;
			get(fp, &out);
			if (out) {
				p.out = true;
				p.want.resize(p.n * p.esize);
				get(fp, p.want.data(), p.want.size());
			}
		}
	}
	return ps;
}

// differs reports element e of output p unlike the cpu backend's.
static bool differs(const Param& p, long long e, double tol) {
	double g, w;
	if (p.kind == 'f') g = ((float*)p.p)[e], w = ((float*)p.want.data())[e];
	else if (p.kind == 'd') g = ((double*)p.p)[e], w = ((double*)p.want.data())[e];
	else return memcmp((char*)p.p + e * p.esize, p.want.data() + e * p.esize, p.esize) != 0;
	return fabs(g - w) > tol * fmax(1, fabs(w)) || std::isnan(g) != std::isnan(w);
}

int main(int argc, char** argv) {
	if (argc != 3 || !kernels.count(argv[1])) {
		fprintf(stderr, "usage: cuemu KERNEL FILE.bin (a kernel of twins.cu)\n");
		return 2;
	}
	FILE* fp = fopen(argv[2], "rb");
	if (!fp) {
		perror(argv[2]);
		return 2;
	}
	double tol;
	std::vector<Param> ps = readDump(fp, &tol);
	kernels.at(argv[1])(ps);
	int bad = 0;
	for (size_t j = 0; j < ps.size(); j++)
		for (long long e = 0; ps[j].out && e < ps[j].n && bad < 3; e++)
			if (differs(ps[j], e, tol)) {
				printf("%s: parameter %zu element %lld differs from the cpu backend\n", argv[1], j, e);
				bad++;
			}
	printf("%s: %s\n", argv[1], bad ? "WRONG" : "= cpu");
	return bad != 0;
}
