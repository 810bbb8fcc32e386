package main

import "fmt"

func main() {
	fmt.Println("release-pipeline")
}
