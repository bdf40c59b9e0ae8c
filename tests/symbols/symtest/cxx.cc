// C++ names: namespaces, templates, classes, overloads and an anonymous namespace.
#include <cstdio>

volatile int cxx_sink;

namespace outer_ns {
namespace inner {

template <typename T> __attribute__((noinline)) T scale(T v, int k)
{
	cxx_sink += k;
	return v * k;
}

class Widget {
public:
	__attribute__((noinline)) int frob(int x) const;
	__attribute__((noinline)) static double frob(double x);
};

int Widget::frob(int x) const
{
	return x + cxx_sink;
}

double Widget::frob(double x)
{
	return x * 2 + cxx_sink;
}

} // namespace inner
} // namespace outer_ns

namespace {
__attribute__((noinline)) int hidden_helper(int x)
{
	return x ^ cxx_sink;
}
} // namespace

int main(int argc, char **)
{
	outer_ns::inner::Widget w;
	int r = outer_ns::inner::scale<int>(argc, 3) + (int)outer_ns::inner::scale<double>(1.5, 2);

	r += w.frob(argc) + (int)outer_ns::inner::Widget::frob(1.0) + hidden_helper(r);
	return r == 12345;
}
