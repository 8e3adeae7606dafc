module example.com/realworld

go 1.26.0

require example.com/apiclient v0.0.0

replace example.com/apiclient => ./apiclient
