/*
Package memspace defines an Analyzer that checks that kernel code stays in
device memory and host code launches kernels correctly.

TODO
*/
package memspace
