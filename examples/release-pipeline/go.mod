module example.dev/release-pipeline

go 1.24
