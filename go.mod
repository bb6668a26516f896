module arena

go 1.26
