@_exported import ListEngine
