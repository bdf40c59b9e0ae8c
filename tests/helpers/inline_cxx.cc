// A C++ workload whose hot code is inlined: templates and member functions
// forced inline into Worker::run, for the profile exports' inline frames
// (pprof locations with several lines, folded "_[i]").  Built -O2 -g.
#include <cstdlib>
#include <ctime>

namespace perfev_test {

static volatile unsigned long sink;

template <typename T> static inline __attribute__((always_inline)) T mix(T x)
{
	return x * 2654435761u ^ (x >> 7);
}

struct Accumulator {
	unsigned long total = 0;
	inline __attribute__((always_inline)) void add(unsigned long v)
	{
		for (int i = 0; i < 64; i++)
			total += mix<unsigned long>(v + i);
	}
};

class Worker {
public:
	explicit Worker(long ms) : ms_(ms) {}
	void __attribute__((noinline)) run()
	{
		Accumulator acc;
		long long t0 = cpu_ns();

		while (cpu_ns() - t0 < ms_ * 1000000LL)
			for (unsigned long v = 0; v < 1000; v++)
				acc.add(v);
		sink = acc.total;
	}

private:
	static long long cpu_ns()
	{
		timespec ts;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		return ts.tv_sec * 1000000000LL + ts.tv_nsec;
	}
	long ms_;
};

} // namespace perfev_test

int main(int argc, char **argv)
{
	perfev_test::Worker w(argc > 1 ? std::atol(argv[1]) : 300);

	w.run();
	return 0;
}
